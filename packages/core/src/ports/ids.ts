/**
 * Makes opaque ids. Ids of one prefix must sort in creation order within one process (lists are
 * ordered by id) and must never repeat across processes.
 *
 * @example
 * ids.next("cmp") // "cmp_01JD7Z3K6W9Q2M4T8B5N1R0XYZ"
 */
export interface Ids {
  next(prefix: IdPrefix): string
}

/** Prefixes of the engine's ids, one per kind of resource. */
export type IdPrefix =
  | "ws"
  | "key"
  | "cmp"
  | "ent"
  | "rcp"
  | "ba"
  | "ad"
  | "rd"
  | "pp"
  | "qt"
  | "pay"
  | "job"
  | "evt"
  | "app"
