import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresDialect,
  PostgresDriver,
  type PostgresPool,
  type QueryResult,
} from "kysely"
import pg from "pg"
import { type DirectStatements, directStatementsKey } from "../direct-statements.ts"
import { preparedStatementName } from "../prepared-query.ts"

/** What of pg's `Query` and its connection a query of the storage uses: the protocol's steps, as pg-cursor does. */
interface ProtocolConnection {
  parse(statement: { readonly text: string }): void
  bind(portal: object): void
  execute(portal: object): void
  readonly parsedStatements: Record<string, string | undefined>
}
/** A column of a RowDescription, as pg's parser gives it. */
interface FieldDescription {
  readonly name: string
  readonly dataTypeID: number
  readonly format?: string
}
interface QueryResultInternals {
  fields: ReadonlyArray<FieldDescription>
  _parsers: Array<(text: string) => unknown>
}
interface QueryInternals {
  prepare(connection: ProtocolConnection): void
  handleCommandComplete(message: unknown, connection: ProtocolConnection): void
  handleRowDescription(message: { readonly fields: ReadonlyArray<FieldDescription> }): void
  _checkForMultirow(): void
  name: string | undefined
  values: ReadonlyArray<unknown> | undefined
  _rowMode: "array" | undefined
  _result: QueryResultInternals
  _results: QueryResultInternals | Array<QueryResultInternals>
  _accumulateRows: boolean
}
type QueryClass = new (
  text: string,
  values: undefined,
  callback: (error: Error | null, result: pg.QueryResult) => void,
) => QueryInternals & pg.Submittable

/** A query as the storage sends it: its text, its values, and a name when it is a named statement. */
interface StorageQueryConfig {
  readonly text: string
  readonly name?: string | undefined
  readonly values?: ReadonlyArray<unknown> | undefined
  /** Rows as arrays of the columns' values, in the select list's order, instead of objects. */
  readonly arrays?: boolean
}

/**
 * A query of the storage, as pg's own with three differences:
 *
 * - It is made from its text, and given its name and values after: pg copies a config object
 *   property by property through their descriptors, 15 times as long as the rest of making a
 *   query (a text alone it takes as it is).
 * - Its RowDescription sets the columns and their parsers only. pg's also builds an object with a
 *   property for each column, in dictionary mode, and copies it for every row of object mode,
 *   which for a joined read of 45 columns cost more than parsing its rows; a row built from an
 *   empty object, as pg does when there is none, is the same row.
 * - `afterBegin`: the transaction's BEGIN goes before it, in one write and one round trip: an
 *   unnamed BEGIN parsed, bound and executed, then the query's own steps, and one Sync after
 *   both, so that if the BEGIN fails the query is not run at all. The BEGIN's answer (its
 *   CommandComplete) is not the query's and is passed over.
 */
class StorageQuery extends (pg.Query as unknown as QueryClass) {
  readonly #afterBegin: boolean
  #begun = false

  constructor(
    config: StorageQueryConfig,
    afterBegin: boolean,
    callback: (error: Error | null, result: pg.QueryResult) => void,
  ) {
    super(config.text, undefined, callback)
    this.name = config.name
    this.values = config.values
    if (config.arrays === true) {
      const result = new pg.Result("array", pg.types) as unknown as QueryResultInternals
      this._rowMode = "array"
      this._result = result
      this._results = result
    }
    this.#afterBegin = afterBegin
  }

  override prepare(connection: ProtocolConnection): void {
    if (this.#afterBegin) {
      connection.parse({ text: "begin" })
      connection.bind({})
      connection.execute({})
    }
    super.prepare(connection)
  }

  override handleCommandComplete(message: unknown, connection: ProtocolConnection): void {
    if (this.#begun || !this.#afterBegin) super.handleCommandComplete(message, connection)
    else this.#begun = true
  }

  override handleRowDescription(message: { readonly fields: ReadonlyArray<FieldDescription> }): void {
    // A simple query of several statements answers a result for each, as pg's own does.
    this._checkForMultirow()
    const result = this._result
    result.fields = message.fields
    result._parsers = message.fields.map((field) =>
      pg.types.getTypeParser(field.dataTypeID, (field.format ?? "text") as "text"),
    )
    this._accumulateRows = true
  }
}

/**
 * Whether `query` can carry a BEGIN before it ({@link StorageQuery}'s `afterBegin`): a query of the extended
 * protocol (with values, or named) whose statement, if named, this client has already parsed. A
 * simple query may hold several statements, which the extended protocol refuses; and pg takes
 * the BEGIN's ParseComplete for the query's own, so a named statement's first parse goes alone.
 */
const carriesBegin = (client: pg.PoolClient, query: StorageQueryConfig): boolean => {
  if (query.name === undefined) return (query.values?.length ?? 0) > 0
  const { connection } = client as unknown as { readonly connection: ProtocolConnection }
  return connection.parsedStatements[query.name] === query.text
}

/**
 * One pooled pg client as Kysely's connection. The statements {@link preparedQuery} compiled run
 * as named statements, so pg parses and plans each once per connection, which on the hot path of
 * quotes and payments saves more time than the statements take to run; its transactions also run
 * them straight on the client ({@link DirectStatements}). Queries go to the client one at a time,
 * whichever way they come: pg warns of a query sent while another runs, and pg 9 will refuse it.
 */
class PostgresStorageConnection implements DatabaseConnection {
  readonly [directStatementsKey]: DirectStatements = {
    rows: async (statement, parameters) => {
      const { rows } = await this.#send({
        name: statement.name,
        text: statement.sql,
        values: parameters,
        arrays: statement.arrays,
      })
      return rows
    },
  }
  /** Settles once the last query sent settles; undefined when none is running. */
  #last: Promise<void> | undefined
  /** Whether the open transaction's BEGIN waits for its first query ({@link deferBegin}). */
  #beginDeferred = false

  constructor(readonly client: pg.PoolClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { command, rowCount, rows } = await this.#send({
      name: preparedStatementName(query.sql),
      text: query.sql,
      values: query.parameters,
    })
    const changes = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE"
    return { numAffectedRows: changes ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] }
  }

  // biome-ignore lint/correctness/useYield: the storage streams nothing; Kysely's dialect without a cursor refuses alike
  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error("the Postgres storage does not stream queries")
  }

  /**
   * The transaction's BEGIN is not sent on its own (see `postgresStorageDialect`): it goes with
   * the transaction's first query, in that query's round trip where the query allows it.
   */
  deferBegin(): void {
    this.#beginDeferred = true
  }

  /** Whether the transaction's BEGIN was deferred and never sent: it ran nothing, and has nothing to end. */
  takeUnsentBegin(): boolean {
    const unsent = this.#beginDeferred
    this.#beginDeferred = false
    return unsent
  }

  #send(query: StorageQueryConfig): Promise<pg.QueryResult> {
    if (this.#beginDeferred) {
      this.#beginDeferred = false
      if (!carriesBegin(this.client, query)) {
        const begun = this.#submit(() => this.client.query("begin"))
        return this.#submit(() => begun.then(() => this.#query(query, false)))
      }
      return this.#submit(() => this.#query(query, true))
    }
    return this.#submit(() => this.#query(query, false))
  }

  #query(query: StorageQueryConfig, afterBegin: boolean): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      this.client.query(
        new StorageQuery(query, afterBegin, (error, result) => (error === null ? resolve(result) : reject(error))),
      )
    })
  }

  #submit(send: () => Promise<pg.QueryResult>): Promise<pg.QueryResult> {
    const before = this.#last
    const sent = before === undefined ? send() : before.then(send)
    const settled: Promise<void> = sent.then(
      () => this.#settled(settled),
      () => this.#settled(settled),
    )
    this.#last = settled
    return sent
  }

  #settled(query: Promise<void>): void {
    if (this.#last === query) this.#last = undefined
  }
}

/** Options of {@link postgresStorageDialect}. */
export interface PostgresStorageDialectOptions {
  /** Runs once on each new connection, before its first use (the schema's `search_path`). */
  readonly onCreateConnection?: (connection: DatabaseConnection) => Promise<void>
}

/**
 * Kysely's Postgres dialect over a pg pool, with connections of its own
 * ({@link PostgresStorageConnection}): one per pooled client for the client's whole life, so
 * `onCreateConnection` runs once per client. Transactions and savepoints are Kysely's.
 *
 * @example
 * import { Kysely } from "kysely"
 * declare const pool: import("pg").Pool
 * const db = new Kysely<StorageTables>({ dialect: postgresStorageDialect(pool) })
 */
export const postgresStorageDialect = (pool: pg.Pool, options: PostgresStorageDialectOptions = {}): Dialect => {
  // Kysely's dialect for its compiler and adapter, and its driver for the statements of
  // transactions, which it runs on the connection it is given; their pool is never opened.
  const kyselyPool = { pool: pool as unknown as PostgresPool }
  const inner = new PostgresDialect(kyselyPool)
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: (): Driver => {
      const statements = new PostgresDriver(kyselyPool)
      const connections = new WeakMap<pg.PoolClient, PostgresStorageConnection>()
      let ended = false
      return {
        init: async () => {},
        acquireConnection: async () => {
          const client = await pool.connect()
          if (ended) {
            client.release()
            throw new Error("the storage's pool has been closed")
          }
          let connection = connections.get(client)
          if (connection === undefined) {
            connection = new PostgresStorageConnection(client)
            connections.set(client, connection)
            await options.onCreateConnection?.(connection)
          }
          return connection
        },
        // A plain BEGIN waits for the transaction's first query and goes in its round trip; a
        // transaction that runs nothing sends nothing.
        beginTransaction: async (connection, settings) => {
          if (settings.isolationLevel !== undefined || settings.accessMode !== undefined) {
            return statements.beginTransaction(connection, settings)
          }
          ;(connection as PostgresStorageConnection).deferBegin()
        },
        commitTransaction: async (connection) => {
          if (!(connection as PostgresStorageConnection).takeUnsentBegin())
            await statements.commitTransaction(connection)
        },
        rollbackTransaction: async (connection) => {
          if (!(connection as PostgresStorageConnection).takeUnsentBegin())
            await statements.rollbackTransaction(connection)
        },
        savepoint: (connection, name, compile) => statements.savepoint(connection, name, compile),
        rollbackToSavepoint: (connection, name, compile) => statements.rollbackToSavepoint(connection, name, compile),
        releaseSavepoint: (connection, name, compile) => statements.releaseSavepoint(connection, name, compile),
        releaseConnection: async (connection) => {
          ;(connection as PostgresStorageConnection).client.release()
        },
        destroy: async () => {
          if (ended) return
          ended = true
          await pool.end()
        },
      }
    },
  }
}
