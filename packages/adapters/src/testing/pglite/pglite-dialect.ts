import type { PGlite } from "@electric-sql/pglite"
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from "kysely"
import { KyselyPGlite } from "kysely-pglite"
import { quoteIdentifier } from "../../storage/postgres/postgres-storage.ts"

/**
 * A FIFO lock. PGlite is one Postgres session: whoever holds the lock owns that session, from
 * `SET search_path` through `COMMIT`.
 *
 * @example
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

/**
 * `kysely-pglite`'s dialect made safe to share one PGlite among several Kysely instances, each in
 * its own schema. PGlite is a single session and `kysely-pglite` 0.6 hands that session to every
 * caller at once, so concurrent transactions would interleave; here a connection is handed out
 * under a lock shared per PGlite, with that instance's `search_path` set first. Destroying the
 * Kysely instance leaves the PGlite open: it belongs to whoever created it.
 *
 * Only the driver comes from `kysely-pglite` (it passes SQL text and parameters through); the
 * compiler, adapter and introspector are this package's Kysely's own, because `kysely-pglite`
 * 0.6 brings an older Kysely whose compiler does not know every node ours builds.
 *
 * @example
 * const pglite = await PGlite.create()
 * const lock = new SessionLock()
 * const db = new Kysely<StorageTables>({ dialect: pgliteStorageDialect(pglite, { schema: "a", lock }) })
 */
export const pgliteStorageDialect = (client: PGlite, options: PGliteStorageDialectOptions = {}): Dialect => {
  const pglite = new KyselyPGlite(client).dialect
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
      const driver = pglite.createDriver() as unknown as Driver
      const releases = new Map<DatabaseConnection, () => void>()
      return {
        init: () => driver.init(),
        acquireConnection: async () => {
          const release = await lock.acquire()
          try {
            const connection = await driver.acquireConnection()
            if (searchPath !== undefined) await connection.executeQuery(searchPath)
            releases.set(connection, release)
            return connection
          } catch (error) {
            release()
            throw error
          }
        },
        beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
        releaseConnection: async (connection) => {
          try {
            await driver.releaseConnection(connection)
          } finally {
            releases.get(connection)?.()
            releases.delete(connection)
          }
        },
        destroy: async () => {},
      }
    },
  }
}
