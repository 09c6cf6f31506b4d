import type { Awaitable } from "@payments-engine/core"
import type { Compilable, CompiledQuery, DialectAdapter, Kysely } from "kysely"
import { directStatementsFor, type PreparedStatement } from "./direct-statements.ts"

/** Starts every placeholder value, so no real value is taken for one. */
const placeholderMark = "\u0000prepared-query-value:"

/** Where a compiled parameter comes from: a named value of each call, or a constant of the query. */
type Slot = { readonly name: string } | { readonly constant: unknown }

/** Names of the SQL texts compiled here, for drivers that keep named statements (pg). */
const statementNames = new Map<string, string>()

/**
 * The statement name of a SQL text {@link preparedQuery} compiled, or undefined for any other
 * text. The Postgres storage passes it to pg, which then parses and plans the text once per
 * connection instead of at every call.
 *
 * @example
 * declare const client: import("pg").ClientBase, sql: string, values: unknown[]
 * const name = preparedStatementName(sql) // "pe_3"
 * await client.query(name === undefined ? { text: sql, values } : { name, text: sql, values })
 */
export const preparedStatementName = (sql: string): string | undefined => statementNames.get(sql)

interface Compiled {
  readonly adapter: DialectAdapter
  /** The value names it was compiled for, in the order the values object gave them. */
  readonly names: ReadonlyArray<string>
  readonly query: CompiledQuery
  readonly statement: PreparedStatement
  readonly slots: ReadonlyArray<Slot>
}

const sameNames = (known: ReadonlyArray<string>, names: ReadonlyArray<string>): boolean => {
  if (known.length !== names.length) return false
  for (let i = 0; i < names.length; i += 1) if (known[i] !== names[i]) return false
  return true
}

const slotOf = (parameter: unknown): Slot =>
  typeof parameter === "string" && parameter.startsWith(placeholderMark)
    ? { name: parameter.slice(placeholderMark.length) }
    : { constant: parameter }

/**
 * A query Kysely builds and compiles once, then runs with new values: building and compiling a
 * small query takes Kysely about twice as long as SQLite takes to run it, and the hot path of
 * quotes and payments runs a dozen of them. `build` is an ordinary Kysely query over `values`;
 * on the first call (per dialect, and per set of value names) it is built with a placeholder in
 * place of each value, compiled, and every later call binds the real values in their places.
 * Constants of the query (`"Entity"` in a join) stay as they were compiled. In a transaction of
 * the storage (a handle given to {@link runDirectly}) the statement runs on the connection's
 * driver; on any other handle, through Kysely.
 *
 * `build` must use the values only as values (compared, inserted, set), never to decide the
 * shape of the query: an `if` on a value, or a list whose length varies, needs a plain query.
 * A value may be null but not undefined (Kysely leaves an undefined column out; this cannot).
 *
 * @example
 * const findQuote = preparedQuery((db: Kysely<StorageTables>, p: { companyId: CompanyId; id: QuoteId }) =>
 *   db.selectFrom("quotes").selectAll().where("company_id", "=", p.companyId).where("id", "=", p.id),
 * )
 * declare const quoteId: QuoteId
 * const [quote] = await findQuote(trx, { companyId: cid, id: quoteId })
 */
export function preparedQuery<DB, V extends object, R>(
  build: (db: Kysely<DB>, values: V) => Compilable<R>,
): (db: Kysely<DB>, values: V) => Awaitable<ReadonlyArray<R>>
/**
 * With `{ arrays: true }`, each row comes as the array of its values in the order of the query's
 * select list: for a wide join read on a hot path, whose rows a driver builds as arrays for less
 * than as objects. The caller knows the order, having written the list.
 */
export function preparedQuery<DB, V extends object>(
  build: (db: Kysely<DB>, values: V) => Compilable<unknown>,
  options: { readonly arrays: true },
): (db: Kysely<DB>, values: V) => Awaitable<ReadonlyArray<ReadonlyArray<unknown>>>
export function preparedQuery<DB, V extends object, R>(
  build: (db: Kysely<DB>, values: V) => Compilable<R>,
  options: { readonly arrays?: boolean } = {},
): (db: Kysely<DB>, values: V) => Awaitable<ReadonlyArray<unknown>> {
  const arrays = options.arrays === true
  // Keyed by the dialect's adapter, which a Kysely instance shares with its transactions.
  const compiledFor = new WeakMap<DialectAdapter, Map<string, Compiled>>()
  const compile = (db: Kysely<DB>, adapter: DialectAdapter, names: ReadonlyArray<string>): Compiled => {
    const placeholders = Object.fromEntries(names.map((name) => [name, `${placeholderMark}${name}`])) as V
    const query = build(db, placeholders).compile()
    let name = statementNames.get(query.sql)
    if (name === undefined) {
      name = `pe_${statementNames.size + 1}`
      statementNames.set(query.sql, name)
    }
    const statement = { sql: query.sql, name, writes: query.query.kind !== "SelectQueryNode", arrays }
    return { adapter, names, query, statement, slots: query.parameters.map(slotOf) }
  }
  const compiledOf = (db: Kysely<DB>, adapter: DialectAdapter, names: ReadonlyArray<string>): Compiled => {
    let byNames = compiledFor.get(adapter)
    if (byNames === undefined) {
      byNames = new Map()
      compiledFor.set(adapter, byNames)
    }
    const signature = names.join(",")
    let compiled = byNames.get(signature)
    if (compiled === undefined) {
      compiled = compile(db, adapter, names)
      byNames.set(signature, compiled)
    }
    return compiled
  }
  // The last one used, found again by comparing its names: joining them into the map's key and
  // hashing it took 1.4 % of a quote + payment pair, whose queries each run with one set of names.
  let last: Compiled | undefined
  return (db, values) => {
    const adapter = db.getExecutor().adapter
    const names = Object.keys(values)
    let compiled = last
    if (compiled === undefined || compiled.adapter !== adapter || !sameNames(compiled.names, names)) {
      compiled = compiledOf(db, adapter, names)
      last = compiled
    }
    const given = values as Record<string, unknown>
    const parameters = compiled.slots.map((slot) => ("name" in slot ? given[slot.name] : slot.constant))
    const direct = directStatementsFor(db)
    if (direct !== undefined) return direct.rows(compiled.statement, parameters)
    return db
      .executeQuery<R>({ ...compiled.query, parameters } as CompiledQuery<R>)
      .then((result) => (arrays ? result.rows.map((row) => Object.values(row as object)) : result.rows))
  }
}

/**
 * The values of a list for {@link preparedQuery}, named `prefix0`, `prefix1`, ...: a list of
 * another length is another set of names, so the query is compiled once per length.
 *
 * @example
 * const findMany = preparedQuery((db: Kysely<StorageTables>, p: Record<string, QuoteId>) =>
 *   db.selectFrom("quotes").selectAll().where("id", "in", listOf("id", p)),
 * )
 * declare const quoteIds: QuoteId[]
 * await findMany(trx, listValues("id", quoteIds))
 */
export const listValues = <T>(prefix: string, values: ReadonlyArray<T>): Record<string, T> =>
  Object.fromEntries(values.map((value, i) => [`${prefix}${i}`, value]))

/** The list {@link listValues} named, in its order, among `values`. */
export const listOf = <T>(prefix: string, values: Readonly<Record<string, T>>): T[] => {
  const list: T[] = []
  for (let i = 0; `${prefix}${i}` in values; i += 1) list.push(values[`${prefix}${i}`] as T)
  return list
}

/** `change` without its undefined fields, which a prepared query cannot bind (Kysely leaves them out). */
export const definedFields = <T extends object>(change: T): Partial<T> =>
  Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as Partial<T>
