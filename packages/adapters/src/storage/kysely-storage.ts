import type {
  Awaitable,
  EndpointChanges,
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
import { andThen } from "./awaitable.ts"
import { connectionOf, directStatementsOf, runDirectly, stopRunningDirectly } from "./direct-statements.ts"
import { holding, type ImmediateConnection } from "./immediate-connection.ts"
import { kyselyRepositoryFactories } from "./kysely-repositories.ts"
import { lazyRepositories } from "./lazy-repositories.ts"
import type { MigrationStep } from "./migrations/migration-step.ts"
import { migrateStorage } from "./migrations/storage-migrations.ts"
import { oneProcessLiveness } from "./one-process-liveness.ts"
import { readOnlyHandle, refusingJobs } from "./read-only.ts"
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
  /** How lanes of other processes sharing the storage learn of endpoint changes (the storage port's `endpointChanges`). */
  readonly endpointChanges?: EndpointChanges
  /**
   * Runs after `close()` has destroyed the Kysely instance, for resources the caller owns
   * (a temporary file, a schema to drop). Not run when opening fails.
   */
  readonly onClose?: () => Promise<void>
  /** Told of each migration step that ran, with its duration, for a log (see `MigrateStorageOptions.onStep`). */
  readonly onMigration?: (step: MigrationStep) => void
  /**
   * The database's one connection, when its statements answer at once (`sqliteStorageDialect`'s
   * `connection`; `openSqliteStorage` passes it): transactions and reads then run on it directly,
   * without Kysely's `transaction()`, and end before the call returns when their work answered at
   * once. Without it, they run through Kysely.
   */
  readonly connection?: ImmediateConnection
}

/**
 * The storage port over Kysely, plus the handle it runs on: read through `db` to check what a
 * write did, or to add tables of your own next to the engine's.
 *
 * @example
 * const storage = await createKyselyStorage(db, { dialect: sqliteDialect })
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
 * `read` runs its work on one connection without a transaction: on Postgres each statement is
 * one round trip; on SQLite the one connection is held for the whole work, so nothing this
 * process writes lands between its statements (one process only), which is what a deferred
 * `BEGIN` would give, at no `BEGIN` and `COMMIT`. Its work may not write: a write Kysely builds,
 * and any job, is refused with an error (a raw `sql` write is not caught).
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
  await migrateStorage(db, { dialect, ...(options.onMigration === undefined ? {} : { onStep: options.onMigration }) })
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
      const queued = () => {
        queuedIn.add(trx)
      }
      return {
        enqueue: (job) => andThen(repository.enqueue(job), queued),
        bringForward: (workspaceId, ms) => andThen(repository.bringForward(workspaceId, ms), queued),
        removeUnstarted: (keys) => repository.removeUnstarted(keys),
      }
    },
  })
  const readRepositoriesOver = lazyRepositories<Repositories>({
    ...kyselyRepositoryFactories(dialect),
    jobs: () => refusingJobs,
  })
  const { connection } = options
  // On the immediate connection one handle serves every transaction in turn, so its repositories
  // are built once, and whether a transaction queued jobs is cleared as it ends.
  const held =
    connection === undefined
      ? undefined
      : (() => {
          const handle = connection.handleOn(db)
          runDirectly(handle, connection.statements)
          const reader = readOnlyHandle(handle, connection.statements)
          return { handle, repositories: repositoriesOver(handle), readRepositories: readRepositoriesOver(reader) }
        })()

  const storage: KyselyStorage = {
    db,
    dialect,
    capabilities,
    ...(processes === undefined ? {} : { processes }),
    ...(options.endpointChanges === undefined ? {} : { endpointChanges: options.endpointChanges }),
    transaction<T>(work: (tx: Repositories) => Awaitable<T>): Promise<T> {
      if (closing !== undefined) return Promise.reject(new Error("storage is closed"))
      if (held !== undefined) {
        return holding(
          connection as ImmediateConnection,
          true,
          () => work(held.repositories),
          (committed) => {
            if (queuedIn.delete(held.handle) && committed) jobs.committed()
          },
        )
      }
      let handle: Kysely<StorageTables> | undefined
      return db
        .transaction()
        .execute(async (trx) => {
          handle = trx
          // The table set named: TypeScript 6 (the mutation run's checker, tools/mutation) infers
          // it from the transaction's methods and fails where TypeScript 7 does not.
          const statements = directStatementsOf(await connectionOf<StorageTables>(trx))
          if (statements === undefined) return work(repositoriesOver(trx))
          runDirectly<StorageTables>(trx, statements)
          try {
            return await work(repositoriesOver(trx))
          } finally {
            stopRunningDirectly<StorageTables>(trx)
          }
        })
        .then((result) => {
          if (handle !== undefined && queuedIn.has(handle)) jobs.committed()
          return result
        })
    },
    read<T>(work: (tx: Repositories) => Awaitable<T>): Promise<T> {
      if (closing !== undefined) return Promise.reject(new Error("storage is closed"))
      if (held !== undefined) {
        return holding(
          connection as ImmediateConnection,
          false,
          () => work(held.readRepositories),
          () => {},
        )
      }
      return db.connection().execute(async (connection) => {
        const reader = readOnlyHandle(connection, directStatementsOf(await connectionOf(connection)))
        try {
          return await work(readRepositoriesOver(reader))
        } finally {
          stopRunningDirectly(reader)
        }
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
  kyselyStorages.add(storage)
  return storage
}

/** The storages {@link createKyselyStorage} made, for {@link kyselyStorageOf} to tell them. */
const kyselyStorages = new WeakSet<Storage>()

/**
 * The Kysely view of a storage that {@link createKyselyStorage} made (`openSqliteStorage`,
 * `openStorageFromUrl` and `openPostgresStorage` make theirs with it): its `db` and `dialect`.
 * The openers of the main entry return the storage port only, so that a program that does not
 * query the tables itself never loads Kysely's declarations; this is where the tables are.
 * Throws a TypeError for any other storage (your own adapter's, a test double).
 *
 * @example
 * const storage = await openSqliteStorage({ filename: ":memory:" })
 * const rows = await kyselyStorageOf(storage).db.selectFrom("companies").selectAll().execute()
 */
export const kyselyStorageOf = (storage: Storage): KyselyStorage => {
  if (!kyselyStorages.has(storage))
    throw new TypeError("kyselyStorageOf: this storage was not made by createKyselyStorage")
  return storage as KyselyStorage
}
