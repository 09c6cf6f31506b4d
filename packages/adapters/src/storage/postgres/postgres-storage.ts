import { CompiledQuery, Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely"
import pg from "pg"
import { graphileKyselyJobs, migrateGraphileJobs } from "../../jobs/graphile-job-runner.ts"
import { createKyselyStorage, type KyselyStorage } from "../kysely-storage.ts"
import { type preparedQuery, preparedStatementName } from "../prepared-query.ts"
import type { StorageTables } from "../storage-tables.ts"
import { postgresDialect } from "./postgres-dialect.ts"
import { postgresLiveness } from "./postgres-liveness.ts"
import { ensureSchema, graphileWorkerSchema, quoteIdentifier } from "./postgres-schemas.ts"
import { withStartupLock } from "./startup-lock.ts"

/** Options of {@link openPostgresStorage}. */
export interface PostgresStorageOptions {
  /** A `postgres://` or `postgresql://` connection string. */
  readonly connectionString: string
  /**
   * Keep the storage's tables in this schema: it is created when missing and every connection's
   * `search_path` is set to it. Several storages (parallel test files, say) can then share one
   * database. The connection's default schema (usually `public`) when absent.
   */
  readonly schema?: string
  /** Most connections the pool opens. 10 by default. */
  readonly maxConnections?: number
  /** How long to wait for a connection before failing. 10 000 ms by default. */
  readonly connectionTimeoutMs?: number
  /** Runs after `close()` ended the pool, e.g. to drop a test schema. */
  readonly onClose?: () => Promise<void>
  /**
   * One-time set-up of the migrated storage (a first API key, say), run before any other process
   * that opens the same schema gets past its migrations; see {@link withStartupLock}. When it
   * rejects, the storage is closed and opening rejects with its reason.
   */
  readonly setUp?: (storage: KyselyStorage) => Promise<void>
}

/**
 * The pool as Kysely sees it, except that the statements {@link preparedQuery} compiled run as
 * named statements: pg parses and plans each once per connection, which on the hot path of
 * quotes and payments saves more time than the statements take to run. Every other statement
 * runs as before. Those statements name the columns they select (`table-columns.ts`), so a
 * migration that adds a column leaves the statements a running process keeps valid.
 */
const namingStatements = (pool: pg.Pool): PostgresPool => {
  // One wrapper per connection, for its whole life: Kysely knows a connection by this object and
  // runs `onCreateConnection` (the search_path) for one it has not seen, so a new wrapper at each
  // checkout cost every transaction an extra round trip.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((sql: string, parameters: ReadonlyArray<unknown>) => {
      const name = typeof sql === "string" ? preparedStatementName(sql) : undefined
      return name === undefined
        ? client.query(sql, parameters as unknown[])
        : client.query({ name, text: sql, values: parameters as unknown[] })
    }) as unknown as PostgresPoolClient["query"],
    release: () => client.release(),
  })
  return {
    connect: async () => {
      const client = await pool.connect()
      let wrapper = wrappers.get(client)
      if (wrapper === undefined) {
        wrapper = wrap(client)
        wrappers.set(client, wrapper)
      }
      return wrapper
    },
    end: () => pool.end(),
  }
}

/**
 * Connects to Postgres with a `pg` pool and returns the migrated storage on it. Several engine
 * processes may share the database (`capabilities.multiProcess` is true), and may start together:
 * they migrate (graphile-worker's schema, then the storage's) and run `setUp` one at a time.
 * Rejects when the server cannot be reached or the migrations fail.
 *
 * @example
 * const storage = await openPostgresStorage({ connectionString: process.env.DATABASE_URL!, schema: "payments" })
 * const engine = createEngine({
 *   storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher(), serverSecret: { read: async () => secret },
 *   paymentProvider: createSandboxPaymentProvider(), bankLinker: createSandboxBankLinker(),
 * })
 */
export const openPostgresStorage = async (options: PostgresStorageOptions): Promise<KyselyStorage> => {
  const { connectionString, schema, maxConnections = 10, connectionTimeoutMs = 10_000, onClose, setUp } = options
  const searchPath = schema === undefined ? undefined : `set search_path to ${quoteIdentifier(schema)}`
  const pool = new pg.Pool({ connectionString, max: maxConnections, connectionTimeoutMillis: connectionTimeoutMs })
  // An idle connection that breaks (server restart) is dropped from the pool and replaced on the
  // next query; without a listener its error event would crash the process.
  pool.on("error", () => {})
  const db = new Kysely<StorageTables>({
    dialect: new PostgresDialect({
      pool: namingStatements(pool),
      ...(searchPath === undefined
        ? {}
        : {
            onCreateConnection: async (connection) => {
              await connection.executeQuery(CompiledQuery.raw(searchPath))
            },
          }),
    }),
  })
  const lock = { connectionString, connectionTimeoutMs, ...(schema === undefined ? {} : { schema }) }
  const processes = postgresLiveness({ connectionString, connectionTimeoutMs })
  try {
    return await withStartupLock(lock, async () => {
      if (schema !== undefined) await ensureSchema(db, schema)
      const graphile = { pool, workerSchema: graphileWorkerSchema(schema) }
      await migrateGraphileJobs(graphile)
      const storage = await createKyselyStorage(db, {
        dialect: postgresDialect,
        jobs: (storageDb) => graphileKyselyJobs(storageDb, graphile),
        processes,
        onClose: async () => {
          await processes.close()
          await onClose?.()
        },
      })
      await setUp?.(storage)
      return storage
    })
  } catch (error) {
    await db.destroy()
    await processes.close()
    throw error
  }
}
