import type { Page } from "@payments-engine/core"

/** The `links` object of a paged list: relative URLs, `prev` and `next` null at the ends. */
export interface PageLinks {
  readonly first: string
  readonly prev: string | null
  readonly next: string | null
  readonly last: string
}

/**
 * Turns the page numbers the engine computed into relative URLs (path and query). Every other
 * query parameter of the request is kept; `page` and `per_page` are set (per_page as clamped).
 *
 * @example
 * declare const page: Page<Company>
 * pagingLinks("/api/v1/companies", "per_page=2&sort=name", page)
 * // { first: "/api/v1/companies?sort=name&page=1&per_page=2", prev: null, next: "...page=2...", last: ... }
 */
export const pagingLinks = (
  path: string,
  querystring: string,
  page: Pick<Page<unknown>, "meta" | "pages">,
): PageLinks => {
  const kept = new URLSearchParams(querystring)
  kept.delete("page")
  kept.delete("per_page")
  const at = (pageNumber: number): string => {
    const params = new URLSearchParams(kept)
    params.set("page", String(pageNumber))
    params.set("per_page", String(page.meta.per_page))
    return `${path}?${params.toString()}`
  }
  const { first, prev, next, last } = page.pages
  return {
    first: at(first),
    prev: prev === null ? null : at(prev),
    next: next === null ? null : at(next),
    last: at(last),
  }
}
