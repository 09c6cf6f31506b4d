import type { IdOf, IdPrefix } from "../model/types/ids.ts"

/**
 * Makes opaque ids. Ids of one prefix must sort in creation order within one process (lists are
 * ordered by id) and must never repeat across processes. The id is branded with its prefix's kind.
 *
 * @example
 * declare const ids: Ids
 * ids.next("cmp") // "cmp_01JD7Z3K6W9Q2M4T8B5N1R0XYZ", a CompanyId
 */
export interface Ids {
  next<P extends IdPrefix>(prefix: P): IdOf<P>
}
