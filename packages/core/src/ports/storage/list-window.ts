// Not in index.ts: the repositories page with these, and index.ts imports the repositories.

/** A slice of a list: rows to skip and rows to return. */
export interface Window {
  readonly offset: number
  readonly limit: number
}

/** Rows of a window, in id order, and the number of rows in the whole list. */
export interface Slice<T> {
  readonly rows: ReadonlyArray<T>
  readonly total: number
}
