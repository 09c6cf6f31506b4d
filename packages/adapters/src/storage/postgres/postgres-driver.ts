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
import type pg from "pg"
import { type DirectStatements, directStatementsKey } from "../direct-statements.ts"
import { preparedStatementName } from "../prepared-query.ts"

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
      const query = { name: statement.name, text: statement.sql, values: parameters as unknown[] }
      const arrays: pg.QueryArrayConfig | undefined = statement.arrays ? { ...query, rowMode: "array" } : undefined
      const { rows } = await this.#send(arrays ?? query)
      return rows
    },
  }
  /** Settles once the last query sent settles; undefined when none is running. */
  #last: Promise<void> | undefined

  constructor(readonly client: pg.PoolClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const name = preparedStatementName(query.sql)
    const values = [...query.parameters]
    const { command, rowCount, rows } = await this.#send(
      name === undefined ? { text: query.sql, values } : { name, text: query.sql, values },
    )
    const changes = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE"
    return { numAffectedRows: changes ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] }
  }

  // biome-ignore lint/correctness/useYield: the storage streams nothing; Kysely's dialect without a cursor refuses alike
  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error("the Postgres storage does not stream queries")
  }

  #send(query: pg.QueryConfig | pg.QueryArrayConfig): Promise<pg.QueryResult> {
    const before = this.#last
    const sent = before === undefined ? this.client.query(query) : before.then(() => this.client.query(query))
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
        beginTransaction: (connection, settings) => statements.beginTransaction(connection, settings),
        commitTransaction: (connection) => statements.commitTransaction(connection),
        rollbackTransaction: (connection) => statements.rollbackTransaction(connection),
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
