import { type CreateTableBuilder, type Kysely, type RawBuilder, sql } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"

/** A table while its `create table` is being built; every column name is allowed. */
export type TableBuilder = CreateTableBuilder<string, string>

/** A column kind: adds a column of that kind, under the given name, to a table being created. */
export type Column = (table: TableBuilder, name: string) => TableBuilder

/**
 * The column kinds every migration uses, for one dialect. Ids, timestamps, amounts and JSON are
 * text; booleans and counters are integers, so one migration set serves SQLite and Postgres.
 */
export interface ColumnHelpers {
  /** The text type of the dialect, for a column no helper below describes. */
  readonly textType: RawBuilder<unknown>
  /** Text primary key: every id. */
  readonly key: Column
  /** Text, not null. */
  readonly text: Column
  /** Text that may be null. */
  readonly optionalText: Column
  /** Integer, not null. */
  readonly integer: Column
  /** Integer that may be null. */
  readonly optionalInteger: Column
  /** Integer 0/1, not null, 0 unless written: a boolean. */
  readonly flag: Column
  /** Text, not null, referencing `target` (`"table.column"`). */
  readonly reference: (target: string) => Column
}

/**
 * The column kinds of `dialect`. Text columns are of the dialect's `textType`, which compares
 * byte-wise, so ids and ISO 8601 timestamps sort and compare alike on every dialect.
 *
 * @example
 * declare const db: Kysely<unknown> // migrations see no table types
 * const { key, text } = columnHelpers(postgresDialect)
 * await createTable(db, "settings", { name: key, value: text })
 */
export const columnHelpers = (dialect: StorageDialect): ColumnHelpers => {
  const { textType } = dialect
  return {
    textType,
    key: (table, name) => table.addColumn(name, textType, (c) => c.primaryKey()),
    text: (table, name) => table.addColumn(name, textType, (c) => c.notNull()),
    optionalText: (table, name) => table.addColumn(name, textType),
    integer: (table, name) => table.addColumn(name, "integer", (c) => c.notNull()),
    optionalInteger: (table, name) => table.addColumn(name, "integer"),
    flag: (table, name) => table.addColumn(name, "integer", (c) => c.notNull().defaultTo(0)),
    reference: (target) => (table, name) => table.addColumn(name, textType, (c) => c.notNull().references(target)),
  }
}

/**
 * Creates table `name` with `columns` in their order, then the constraints `constraints` adds.
 *
 * @example
 * declare const db: Kysely<unknown>
 * const { key, text } = columnHelpers(sqliteDialect)
 * await createTable(db, "workspaces", { id: key, name: text, created_at: text }, (t) =>
 *   t.addUniqueConstraint("workspaces_name_key", ["name"]),
 * )
 */
export const createTable = async (
  db: Kysely<unknown>,
  name: string,
  columns: Readonly<Record<string, Column>>,
  constraints: (table: TableBuilder) => TableBuilder = (table) => table,
): Promise<void> => {
  let table: TableBuilder = db.schema.createTable(name)
  for (const [column, add] of Object.entries(columns)) table = add(table, column)
  await constraints(table).execute()
}

/** Options of {@link createIndex}. */
export interface IndexOptions {
  readonly unique?: boolean
  /** Index only live rows (`deleted_at is null`): a partial index. */
  readonly liveOnly?: boolean
}

/**
 * Creates index `name` on `columns` of `table`.
 *
 * @example
 * declare const db: Kysely<unknown>
 * await createIndex(db, "recipients_live_by_company", "recipients", ["company_id", "id"], { liveOnly: true })
 */
export const createIndex = async (
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: ReadonlyArray<string>,
  options: IndexOptions = {},
): Promise<void> => {
  let index = db.schema.createIndex(name).on(table)
  if (options.unique === true) index = index.unique()
  index = index.columns([...columns])
  if (options.liveOnly === true) index = index.where(sql.ref("deleted_at"), "is", null)
  await index.execute()
}
