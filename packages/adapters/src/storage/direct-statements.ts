import type { DatabaseConnection, Kysely } from "kysely"

/** A statement {@link preparedQuery} compiled, as a driver runs it. */
export interface PreparedStatement {
  readonly sql: string
  /** Its name for drivers that keep named statements (pg): parsed and planned once per connection. */
  readonly name: string
  /** Whether it may change rows (anything but a select): a read refuses it. */
  readonly writes: boolean
  /**
   * Whether its rows come as arrays of the values in the order of its select list, not as objects:
   * a joined row of forty columns costs a driver more to build as an object than the join costs
   * to run (see `preparedQuery`'s `arrays`).
   */
  readonly arrays: boolean
}

/**
 * Runs prepared statements on the driver of one connection, past Kysely's executor (its
 * connection provider and two or three promise hops a query): the rows only, as Kysely's
 * `executeQuery` would return them, or as arrays where the statement says `arrays`. SQLite answers
 * at once, hence the value or promise.
 */
export interface DirectStatements {
  rows(
    statement: PreparedStatement,
    parameters: ReadonlyArray<unknown>,
  ): ReadonlyArray<unknown> | Promise<ReadonlyArray<unknown>>
}

/** Where the storage's dialects keep a connection's {@link DirectStatements}. */
export const directStatementsKey = Symbol("payments-engine direct statements")

type WithDirectStatements = DatabaseConnection & { readonly [directStatementsKey]?: DirectStatements }

/**
 * `connection` made able to run prepared statements on its driver: the storage's dialects call
 * this on every connection they hand Kysely.
 *
 * @example
 * import type { DatabaseConnection } from "kysely"
 * declare const connection: DatabaseConnection, statements: DirectStatements
 * const mine = withDirectStatements(connection, statements)
 */
export const withDirectStatements = <C extends DatabaseConnection>(connection: C, statements: DirectStatements): C =>
  Object.assign(connection, { [directStatementsKey]: statements })

/** The direct statements of a connection of the storage's dialects, or undefined for any other. */
export const directStatementsOf = (connection: DatabaseConnection): DirectStatements | undefined =>
  (connection as WithDirectStatements)[directStatementsKey]

/**
 * The connection a Kysely handle bound to one connection (a transaction, `db.connection()`) runs
 * on. A handle on a pool gets one connection for the call only: do not ask it.
 */
export const connectionOf = <DB>(handle: Kysely<DB>): Promise<DatabaseConnection> =>
  handle.getExecutor().provideConnection(async (connection) => connection)

// Keyed by the Kysely handle a transaction's repositories run on; set only while that handle
// holds its connection, so a direct call never reaches a connection another transaction holds.
// biome-ignore lint/suspicious/noExplicitAny: one map serves handles of every table set
const runnersByHandle = new WeakMap<Kysely<any>, DirectStatements>()

/**
 * Makes {@link preparedQuery} run on `handle` through `statements` until {@link stopRunningDirectly}.
 * Only for a handle bound to one connection, and only while it holds it.
 */
export const runDirectly = <DB>(handle: Kysely<DB>, statements: DirectStatements): void => {
  runnersByHandle.set(handle, statements)
}

/** Ends {@link runDirectly} for `handle`: called before its connection is given back. */
export const stopRunningDirectly = <DB>(handle: Kysely<DB>): void => {
  runnersByHandle.delete(handle)
}

/** The statements {@link runDirectly} set for `handle`, if any. */
export const directStatementsFor = <DB>(handle: Kysely<DB>): DirectStatements | undefined => runnersByHandle.get(handle)
