import { CompiledQuery, Kysely } from "kysely"
import pg from "pg"
import { graphileKyselyJobs, migrateGraphileJobs } from "../../jobs/graphile-job-runner.ts"
import { createKyselyStorage, type KyselyStorage } from "../kysely-storage.ts"
import type { MigrationStep } from "../migrations/migration-step.ts"
import type { StorageTables } from "../storage-tables.ts"
import { postgresDialect } from "./postgres-dialect.ts"
import { postgresStorageDialect } from "./postgres-driver.ts"
import { postgresEndpointChanges } from "./postgres-endpoint-changes.ts"
import { postgresLiveness } from "./postgres-liveness.ts"
import { ensureSchema, graphileWorkerSchema, quoteIdentifier } from "./postgres-schemas.ts"
import { withStartupLock } from "./startup-lock.ts"
import { unbreakablePool } from "./unbreakable-pool.ts"

/**
 * Whether the storage's tables are in the database (and schema) of `options`, by its migration
 * table: what a command that must not create them asks before {@link openPostgresStorage}
 * would. Creates nothing; connects once and disconnects.
 *
 * @example
 * if (!(await postgresStorageExists({ connectionString: process.env.DATABASE_URL! }))) process.exitCode = 1
 */
export const postgresStorageExists = async (
  options: Pick<PostgresStorageOptions, "connectionString" | "schema" | "connectionTimeoutMs">,
): Promise<boolean> => {
  const client = new pg.Client({
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
  })
  await client.connect()
  try {
    const { rows } = await client.query<{ found: boolean }>(
      `select exists (select 1 from information_schema.tables
         where table_schema = coalesce($1, current_schema()) and table_name = 'kysely_migration') as found`,
      [options.schema ?? null],
    )
    return rows[0]?.found === true
  } finally {
    await client.end()
  }
}

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
  /**
   * Told of each migration step that ran, with its duration, for a log: graphile-worker's
   * schema as one step named `graphile_worker` (when it did any work or not), then the storage's.
   */
  readonly onMigration?: (step: MigrationStep) => void
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
  const {
    connectionString,
    schema,
    maxConnections = 10,
    connectionTimeoutMs = 10_000,
    onClose,
    setUp,
    onMigration,
  } = options
  const searchPath = schema === undefined ? undefined : `set search_path to ${quoteIdentifier(schema)}`
  const pool = unbreakablePool({ connectionString, max: maxConnections, connectionTimeoutMillis: connectionTimeoutMs })
  const db = new Kysely<StorageTables>({
    dialect: postgresStorageDialect(
      pool,
      searchPath === undefined
        ? {}
        : {
            onCreateConnection: async (connection) => {
              await connection.executeQuery(CompiledQuery.raw(searchPath))
            },
          },
    ),
  })
  const lock = { connectionString, connectionTimeoutMs, ...(schema === undefined ? {} : { schema }) }
  const processes = postgresLiveness({ connectionString, connectionTimeoutMs })
  const endpointChanges = postgresEndpointChanges({
    connectionString,
    connectionTimeoutMs,
    schema,
    notify: (channel, payload) => pool.query("select pg_notify($1, $2)", [channel, payload]),
  })
  try {
    return await withStartupLock(lock, async () => {
      if (schema !== undefined) await ensureSchema(db, schema)
      const graphile = { pool, workerSchema: graphileWorkerSchema(schema) }
      const started = performance.now()
      await migrateGraphileJobs(graphile)
      onMigration?.({ name: "graphile_worker", durationMs: Math.round(performance.now() - started) })
      const storage = await createKyselyStorage(db, {
        dialect: postgresDialect,
        jobs: (storageDb) => graphileKyselyJobs(storageDb, graphile),
        processes,
        endpointChanges,
        ...(onMigration === undefined ? {} : { onMigration }),
        onClose: async () => {
          await endpointChanges.close()
          await processes.close()
          await onClose?.()
        },
      })
      await setUp?.(storage)
      return storage
    })
  } catch (error) {
    await db.destroy()
    await endpointChanges.close()
    await processes.close()
    throw error
  }
}
