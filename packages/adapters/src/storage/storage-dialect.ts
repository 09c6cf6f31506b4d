import type { StorageCapabilities } from "@payments-engine/core"
import type { RawBuilder } from "kysely"

/**
 * What the SQL of one database lets the Kysely storage say, named in one place as Kysely's
 * `DialectAdapter` names its own (`supportsReturning`, `supportsTransactionalDdl`). The storage,
 * its repositories, its job table and its migrations read these instead of comparing dialect
 * names. A third database is one more object, plus the SQL its missing features need: see
 * docs/adapters.md, "A third dialect (MySQL)".
 *
 * This is not Kysely's `Dialect` (driver, query compiler, adapter): {@link sqliteStorageDialect}
 * and `PostgresDialect` make those. It says what our statements may rely on once Kysely has
 * compiled them.
 *
 * @example
 * const storage = await createKyselyStorage(db, { dialect: postgresDialect })
 * storage.dialect.supportsRowLocks // true
 */
export interface StorageDialect {
  /** The database's name, for messages and tests. */
  readonly name: string
  /**
   * `INSERT`, `UPDATE` and `DELETE ... RETURNING`. Every conditional write reads its outcome
   * from it (a compare-and-set answers the row it changed, an insert-or-read the row it made):
   * every file of `repositories/` and the job table. Required.
   */
  readonly supportsReturning: boolean
  /**
   * `CREATE INDEX ... WHERE`. One live entity per company and one queued job per key are unique
   * partial indexes; live rows, pending deliveries, processing payments and batch members have
   * small ones (migrations 0001, 0004, 0008 to 0011, 0015, 0021). Required.
   */
  readonly supportsPartialIndexes: boolean
  /**
   * `INSERT ... ON CONFLICT (columns) DO NOTHING` and `DO UPDATE SET ... excluded.column`: the
   * insert-or-read of workspaces, settings, features, onboardings, idempotency claims and
   * deliveries, and the upserts of trusted domains and test clocks. Required.
   */
  readonly supportsOnConflict: boolean
  /**
   * A conflict target with a condition, `ON CONFLICT (column) WHERE condition`, naming a partial
   * unique index: a second live entity of a company (`repositories/entities.ts`), a job queued
   * again under its key (`jobs/kysely-job-table.ts`). Required.
   */
  readonly supportsConflictTargetWhere: boolean
  /**
   * Whether a migration runs in one transaction, so one that fails leaves nothing behind.
   * Kysely's migrator decides from its own adapter (Postgres yes; SQLite no, though SQLite could);
   * this says what it will do. Not required: without it, a migration that failed half-way must be
   * repaired by hand before the next start.
   */
  readonly supportsTransactionalDdl: boolean
  /**
   * `SELECT ... FOR UPDATE [SKIP LOCKED]`: webhook lanes hold a delivery and pass over rows
   * another lane's transaction holds (`repositories/webhook-deliveries.ts`). Without it the
   * statements run bare, right for a database that runs one writer at a time.
   */
  readonly supportsRowLocks: boolean
  /**
   * `UPDATE ... FROM (VALUES ...)` with `::integer` casts: a lane's moves of many deliveries in one
   * statement (`compareAndSetMany`). Without it each move is its own statement, which costs SQLite
   * no round trip.
   */
  readonly supportsUpdateFromValues: boolean
  /**
   * `WITH ... AS (INSERT ...) SELECT ...`: an outbox event is appended and its company's webhook
   * endpoints read back in one statement (`repositories/events.ts`). Without it they are two
   * statements, which costs SQLite no round trip.
   */
  readonly supportsWritingCte: boolean
  /**
   * Schemas inside a database with `current_schema()`: the migrations' bookkeeping tables are
   * kept in the storage's schema, so storages in two schemas of one database migrate apart.
   */
  readonly supportsSchemas: boolean
  /**
   * Whether graphile-worker can run the storage's jobs (Postgres only): the migrations add the
   * heartbeats table of its workers, `job_workers`.
   */
  readonly hostsGraphileWorker: boolean
  /**
   * The type of every text column: ids, timestamps, amounts and JSON are text. It must compare
   * byte by byte (Postgres needs the "C" collation), so ids and ISO 8601 timestamps sort alike on
   * every database, whatever its locale.
   */
  readonly textType: RawBuilder<unknown>
  /**
   * The storage's `capabilities` unless `createKyselyStorage` is told otherwise (PGlite speaks
   * Postgres from one connection of one process).
   */
  readonly capabilities: StorageCapabilities
}

/** The features every statement of the Kysely storage assumes; a dialect without one is refused. */
const requiredFeatures = [
  "supportsReturning",
  "supportsPartialIndexes",
  "supportsOnConflict",
  "supportsConflictTargetWhere",
] as const satisfies ReadonlyArray<keyof StorageDialect>

/**
 * Throws when `dialect` lacks a feature the storage's statements assume, naming them all, rather
 * than failing later on the first statement that uses one.
 *
 * @example
 * assertSupportedDialect(sqliteDialect) // returns
 */
export const assertSupportedDialect = (dialect: StorageDialect): void => {
  const missing = requiredFeatures.filter((feature) => !dialect[feature])
  if (missing.length > 0) {
    throw new Error(
      `the Kysely storage cannot run on ${dialect.name}: it lacks ${missing.join(", ")} (see docs/adapters.md, "A third dialect")`,
    )
  }
}
