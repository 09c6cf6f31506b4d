import type { Awaitable } from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import { andThen } from "../awaitable.ts"
import { preparedQuery } from "../prepared-query.ts"
import type { StorageTables } from "../storage-tables.ts"
import { type AnyTables, anyTables, type TableWithId } from "./kysely-any.ts"

/** Options of {@link scopedFind}. */
export interface ScopedFindOptions {
  /** Find only a live row (`deleted_at is null`). */
  readonly liveOnly?: boolean
}

/**
 * The read of one row by its id within its owner (a company or a workspace), which nearly every
 * use case makes: compiled once (see `preparedQuery`), selecting `columns` by name, and handed
 * to `toRecord`.
 *
 * @example
 * declare const paymentId: PaymentId
 * const findPayment = scopedFind("payments", "company_id", ["id", "status"], (row) => row)
 * const payment = await findPayment(trx, cid, paymentId) // { id, status } or undefined
 */
export const scopedFind = <T extends TableWithId, R>(
  table: T,
  scope: keyof StorageTables[T] & ("company_id" | "workspace_id"),
  columns: ReadonlyArray<keyof StorageTables[T] & string>,
  toRecord: (row: Selectable<StorageTables[T]>) => R,
  options: ScopedFindOptions = {},
): ((db: Kysely<StorageTables>, scopeId: string, id: string) => Awaitable<R | undefined>) => {
  const find = preparedQuery((db: Kysely<AnyTables>, p: { readonly scopeId: string; readonly id: string }) => {
    const row = db
      .selectFrom(table as string)
      .select([...columns] as string[])
      .where(scope as string, "=", p.scopeId)
      .where("id", "=", p.id)
    return options.liveOnly === true ? row.where("deleted_at", "is", null) : row
  })
  return (db, scopeId, id) =>
    andThen(find(anyTables(db), { scopeId, id }), ([row]) =>
      row === undefined ? undefined : toRecord(row as Selectable<StorageTables[T]>),
    )
}
