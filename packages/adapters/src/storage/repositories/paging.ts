import type { Slice, Window } from "@payments-engine/core"
import type { Selectable, SelectQueryBuilder } from "kysely"
import type { StorageTables } from "../storage-tables.ts"
import { anyQuery, type TableWithId } from "./kysely-any.ts"

/** Rejects windows that no SQL database reads the same way (SQLite takes a negative LIMIT as "no limit"). */
export const checkedWindow = (window: Window): Window => {
  const { offset, limit } = window
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`invalid window: offset and limit must be non-negative safe integers, got ${offset}, ${limit}`)
  }
  return window
}

/** `count(*)` arrives as a number (SQLite), a string (pg) or a bigint, depending on the driver. */
export const countOf = (row: { readonly total?: unknown } | undefined): number => Number(row?.total ?? 0)

/**
 * One window of the rows `rows` selects, in id order (or newest first by `created_at`, then id
 * descending, for a table that has it), with the number of rows in the whole list. No row query
 * runs when the window starts past the end.
 *
 * @example
 * const slice = await pageOf(db.selectFrom("recipients").where("company_id", "=", cid), { offset: 0, limit: 25 }, toRecipient)
 */
export const pageOf = async <T extends TableWithId, R>(
  rows: SelectQueryBuilder<StorageTables, T, object>,
  window: Window,
  toRecord: (row: Selectable<StorageTables[T]>) => R,
  order: "id" | "newest" = "id",
): Promise<Slice<R>> => {
  const { offset, limit } = checkedWindow(window)
  const query = anyQuery(rows)
  const total = countOf(await query.select((eb) => eb.fn.countAll().as("total")).executeTakeFirst())
  if (limit === 0 || offset >= total) return { rows: [], total }
  const ordered = order === "id" ? query.orderBy("id") : query.orderBy("created_at", "desc").orderBy("id", "desc")
  const page = await ordered.selectAll().limit(limit).offset(offset).execute()
  return { rows: page.map((row) => toRecord(row as Selectable<StorageTables[T]>)), total }
}
