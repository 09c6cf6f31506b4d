import type { Kysely, SelectQueryBuilder } from "kysely"
import type { StorageTables } from "../storage-tables.ts"

/**
 * The storage's tables as the compiler sees them when a helper takes the table's name as a type
 * parameter: Kysely's builder cannot follow a generic table name to its columns, so the few
 * helpers that serve every table (a page of rows, a find in a scope) build over this instead, and
 * their callers keep the exact row types.
 */
export type AnyTables = Record<string, Record<string, unknown>>

/** Tables of the storage whose rows have an `id`, the key that pages and finds order and match by. */
export type TableWithId = {
  [T in keyof StorageTables]: "id" extends keyof StorageTables[T] ? T : never
}[keyof StorageTables]

/** `db` seen with {@link AnyTables}: the same object, so prepared queries keep their cache. */
export const anyTables = (db: Kysely<StorageTables>): Kysely<AnyTables> => db as unknown as Kysely<AnyTables>

/** `query` seen with {@link AnyTables}. */
export const anyQuery = <T extends keyof StorageTables>(
  query: SelectQueryBuilder<StorageTables, T, object>,
): SelectQueryBuilder<AnyTables, string, object> => query as unknown as SelectQueryBuilder<AnyTables, string, object>
