import type { PGlite } from "@electric-sql/pglite"
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely"
import { quoteIdentifier } from "../../storage/postgres/postgres-schemas.ts"

/**
 * A FIFO lock. PGlite is one Postgres session: whoever holds the lock owns that session, from
 * `SET search_path` through `COMMIT`.
 *
 * @example
 * declare const lock: SessionLock, work: () => Promise<void>
 * const release = await lock.acquire()
 * try { await work() } finally { release() }
 */
export class SessionLock {
  #tail: Promise<void> = Promise.resolve()

  /** Resolves, in call order, with the function that releases the lock. */
  acquire(): Promise<() => void> {
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const acquired = this.#tail.then(() => release)
    this.#tail = this.#tail.then(() => released)
    return acquired
  }
}

/** Options of {@link pgliteStorageDialect}. */
export interface PGliteStorageDialectOptions {
  /** Schema set as `search_path` each time a connection is handed out. */
  readonly schema?: string
  /** Shared by every dialect on the same PGlite instance; one is made when absent. */
  readonly lock?: SessionLock
}

/** PGlite as one Kysely connection: SQL text and parameters passed through as they are. */
const pgliteConnection = (client: PGlite): DatabaseConnection => ({
  executeQuery: async <R>(query: CompiledQuery) => {
    const result = await client.query<R>(query.sql, [...query.parameters])
    const counted: QueryResult<R> = { rows: result.rows }
    return result.affectedRows === undefined ? counted : { ...counted, numAffectedRows: BigInt(result.affectedRows) }
  },
  streamQuery: () => {
    throw new Error("PGlite cannot stream query results")
  },
})

/**
 * A Kysely dialect on PGlite, safe to share one PGlite among several Kysely instances, each in
 * its own schema. PGlite is a single session, so concurrent transactions would interleave; here
 * the connection is handed out under a lock shared per PGlite, with that instance's
 * `search_path` set first. Destroying the Kysely instance leaves the PGlite open: it belongs to
 * whoever created it.
 *
 * The driver is this file's own (a dozen lines) rather than `kysely-pglite`'s: that package
 * brings `kysely-codegen`, a CLI stack and a second, older Kysely into every install.
 *
 * @example
 * const pglite = await PGlite.create()
 * const lock = new SessionLock()
 * const db = new Kysely<StorageTables>({ dialect: pgliteStorageDialect(pglite, { schema: "a", lock }) })
 */
export const pgliteStorageDialect = (client: PGlite, options: PGliteStorageDialectOptions = {}): Dialect => {
  const lock = options.lock ?? new SessionLock()
  const searchPath =
    options.schema === undefined
      ? undefined
      : CompiledQuery.raw(`set search_path to ${quoteIdentifier(options.schema)}`)
  return {
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createDriver: (): Driver => {
      const releases = new Map<DatabaseConnection, () => void>()
      const run = async (connection: DatabaseConnection, sql: string) => {
        await connection.executeQuery(CompiledQuery.raw(sql))
      }
      return {
        init: async () => {},
        acquireConnection: async () => {
          const release = await lock.acquire()
          try {
            const connection = pgliteConnection(client)
            if (searchPath !== undefined) await connection.executeQuery(searchPath)
            releases.set(connection, release)
            return connection
          } catch (error) {
            release()
            throw error
          }
        },
        beginTransaction: (connection) => run(connection, "begin"),
        commitTransaction: (connection) => run(connection, "commit"),
        rollbackTransaction: (connection) => run(connection, "rollback"),
        releaseConnection: async (connection) => {
          releases.get(connection)?.()
          releases.delete(connection)
        },
        destroy: async () => {},
      }
    },
  }
}
