import type {
  JobHandlers,
  JobRunner,
  JobRunnerOptions,
  ProcessLiveness,
  Repositories,
  Storage,
  StorageCapabilities,
} from "@payments-engine/core"
import type { Kysely } from "kysely"
import { embeddedKyselyJobs, type KyselyJobs } from "../jobs/kysely-job-table.ts"
import { kyselyRepositoryFactories } from "./kysely-repositories.ts"
import { lazyRepositories } from "./lazy-repositories.ts"
import { migrateStorage } from "./migrations/storage-migrations.ts"
import { oneProcessLiveness } from "./one-process-liveness.ts"
import type { StorageDialect } from "./storage-dialect.ts"
import type { StorageTables } from "./storage-tables.ts"

/** Options of {@link createKyselyStorage}. */
export interface KyselyStorageOptions {
  /**
   * What the SQL of the Kysely instance's database may rely on ({@link sqliteDialect} or
   * {@link postgresDialect}): decides the text type, row locks and default `capabilities`.
   */
  readonly dialect: StorageDialect
  /**
   * What the database behind the Kysely instance can do, when it differs from the dialect's
   * `capabilities`: a Postgres server takes several processes and overlapping transactions;
   * SQLite and PGlite (one connection, one process) take neither.
   */
  readonly capabilities?: StorageCapabilities
  /**
   * Where the storage's jobs are queued and run, made over the storage's Kysely instance:
   * `openPostgresStorage` passes graphile-worker's (`graphileKyselyJobs` of
   * `@payments-engine/adapters/postgres`), which several processes share. By default
   * ({@link embeddedKyselyJobs}) jobs are rows of the storage's `jobs` table, run in-process by the
   * embedded runner: right for SQLite and PGlite, one process only.
   *
   * @example
   * declare const pool: import("pg").Pool
   * const storage = await createKyselyStorage(db, {
   *   dialect: postgresDialect,
   *   jobs: (storageDb) => graphileKyselyJobs(storageDb, { pool, workerSchema: "graphile_worker" }),
   * })
   */
  readonly jobs?: (db: Kysely<StorageTables>) => KyselyJobs
  /**
   * Which processes sharing the storage still run (the storage port's `processes`):
   * `openPostgresStorage` passes `postgresLiveness`. By default a storage that is not
   * `multiProcess` knows itself the only process ({@link oneProcessLiveness}); a multi-process one
   * has none, and a claimed `Idempotency-Key` of a dead process waits out its 60 s lock.
   */
  readonly processes?: ProcessLiveness
  /**
   * Runs after `close()` has destroyed the Kysely instance, for resources the caller owns
   * (a temporary file, a schema to drop). Not run when opening fails.
   */
  readonly onClose?: () => Promise<void>
}

/**
 * The storage port over Kysely, plus the handle it runs on: read through `db` to check what a
 * write did, or to add tables of your own next to the engine's.
 *
 * @example
 * const storage = await openSqliteStorage({ filename: ":memory:" })
 * const rows = await storage.db.selectFrom("companies").selectAll().execute()
 */
export interface KyselyStorage extends Storage {
  /** The Kysely instance; destroyed by `close()`. */
  readonly db: Kysely<StorageTables>
  /** The dialect the storage was created for. */
  readonly dialect: StorageDialect
}

/**
 * Makes the engine's storage from a Kysely instance on SQLite or Postgres: runs the migrations
 * first (a no-op when they ran before), then answers every `transaction` in a Kysely transaction.
 * A rejected `work` rolls back and rejects with the same reason. `close()` destroys the instance.
 *
 * Most callers want {@link openSqliteStorage}, `openPostgresStorage` (of
 * `@payments-engine/adapters/postgres`) or {@link openStorageFromUrl}, which build the Kysely
 * instance too.
 *
 * @example
 * import Database from "better-sqlite3"
 * import { Kysely, SqliteDialect } from "kysely"
 *
 * const db = new Kysely<StorageTables>({ dialect: new SqliteDialect({ database: new Database(":memory:") }) })
 * const storage = await createKyselyStorage(db, { dialect: sqliteDialect })
 * const engine = createEngine({
 *   storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher(), serverSecret: { read: async () => secret },
 *   paymentProvider: createSandboxPaymentProvider(), bankLinker: createSandboxBankLinker(),
 * })
 */
export const createKyselyStorage = async (
  db: Kysely<StorageTables>,
  options: KyselyStorageOptions,
): Promise<KyselyStorage> => {
  const { dialect, onClose } = options
  await migrateStorage(db, { dialect })
  const capabilities: StorageCapabilities = options.capabilities ?? { ...dialect.capabilities }
  const processes = options.processes ?? (capabilities.multiProcess ? undefined : oneProcessLiveness())
  let closing: Promise<void> | undefined
  const jobs = (options.jobs ?? embeddedKyselyJobs)(db)
  // Whether a transaction queued jobs (or brought some closer), keyed by its handle: a runner of
  // this process is told once they exist, that is after the commit.
  const queuedIn = new WeakSet<Kysely<StorageTables>>()
  const repositoriesOver = lazyRepositories<Repositories>({
    ...kyselyRepositoryFactories(dialect),
    jobs: (trx) => {
      const repository = jobs.repository(trx)
      return {
        enqueue: async (job) => {
          await repository.enqueue(job)
          queuedIn.add(trx)
        },
        bringForward: async (workspaceId, ms) => {
          await repository.bringForward(workspaceId, ms)
          queuedIn.add(trx)
        },
        removeUnstarted: (keys) => repository.removeUnstarted(keys),
      }
    },
  })

  return {
    db,
    dialect,
    capabilities,
    ...(processes === undefined ? {} : { processes }),
    transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
      if (closing !== undefined) return Promise.reject(new Error("storage is closed"))
      let handle: Kysely<StorageTables> | undefined
      return db
        .transaction()
        .execute((trx) => {
          handle = trx
          return work(repositoriesOver(trx))
        })
        .then((result) => {
          if (handle !== undefined && queuedIn.has(handle)) jobs.committed()
          return result
        })
    },
    createJobRunner(handlers: JobHandlers, runnerOptions: JobRunnerOptions): JobRunner {
      return jobs.createRunner(handlers, runnerOptions)
    },
    close(): Promise<void> {
      closing ??= (async () => {
        await db.destroy()
        await onClose?.()
      })()
      return closing
    },
  }
}
