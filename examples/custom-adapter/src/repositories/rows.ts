import type { Slice, Window } from "@payments-engine/core"

/** Rows in id order, the order every list of the port promises (ids compare as bytes). */
export const byId = (a: { readonly id: string }, b: { readonly id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** A frozen copy: a record stored is never changed in place, only replaced. */
export const freeze = <T extends object>(row: T): T => Object.freeze({ ...row })

/** The rows that match, in id order, cut to the window, with how many matched. */
export const windowOf = <T extends { readonly id: string }>(
  rows: Iterable<T>,
  keep: (row: T) => boolean,
  window: Window,
): Slice<T> => {
  const all = [...rows].filter(keep).sort(byId)
  return { rows: all.slice(window.offset, window.offset + window.limit), total: all.length }
}

/** True for a row that is not soft-deleted. */
export const isLive = (row: { readonly deleted_at: string | null }): boolean => row.deleted_at === null

/**
 * The row with that id when `owned` says it is in the caller's scope (its company or workspace),
 * else undefined: another scope's row reads as missing.
 */
export const findScoped = <T>(rows: ReadonlyMap<string, T>, id: string, owned: (row: T) => boolean): T | undefined => {
  const row = rows.get(id)
  return row !== undefined && owned(row) ? row : undefined
}
