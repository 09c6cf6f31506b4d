// The types of the paged lists (`rules/paging.ts`), written out (docs/decisions.md, "Public types").

/** A validated page request: `page` and `perPage` are whole numbers >= 1. */
export interface PageRequest {
  readonly page: number
  readonly perPage: number
}

/** Page size defaults and bounds of one list. */
export interface PagePolicy {
  readonly defaultPerPage: number
  readonly maxPerPage: number
}

/** The `meta` object of a paged list response. */
export interface PageMeta {
  readonly total_records: number
  readonly total_pages: number
  readonly current_page: number
  readonly per_page: number
}

/** Page numbers of the `links` object; the HTTP binding turns them into URLs. */
export interface PageNumbers {
  readonly first: number
  readonly prev: number | null
  readonly next: number | null
  readonly last: number
}

/** One page of a list. */
export interface Page<T> {
  readonly data: ReadonlyArray<T>
  readonly meta: PageMeta
  readonly pages: PageNumbers
}

/** The raw query values, as strings (or numbers, from an embedder) or absent. */
export interface PageQuery {
  readonly page?: unknown
  readonly per_page?: unknown
}
