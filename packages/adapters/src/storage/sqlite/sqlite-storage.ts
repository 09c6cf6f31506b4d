import { mkdirSync } from "node:fs"
import { dirname, resolve } from "node:path"
import type { Storage } from "@payments-engine/core"
import { Kysely } from "kysely"
import { createKyselyStorage } from "../kysely-storage.ts"
import type { MigrationStep } from "../migrations/migration-step.ts"
import type { StorageTables } from "../storage-tables.ts"
import { sqliteDialect, sqliteStorageDialect } from "./sqlite-dialect.ts"

/** Options of {@link openSqliteStorage}. */
export interface SqliteStorageOptions {
  /** A database file (its folder is created when missing) or `":memory:"`. */
  readonly filename: string
  /** How long a statement waits for another connection's lock before failing. 5000 by default. */
  readonly busyTimeoutMs?: number
  /** Runs after `close()` closed the database, e.g. to delete a temporary file. */
  readonly onClose?: () => Promise<void>
  /** Told of each migration step that ran, with its duration, for a log. */
  readonly onMigration?: (step: MigrationStep) => void
}

const memory = ":memory:"

/**
 * better-sqlite3, loaded when a SQLite storage is opened: it is an optional peer dependency (a
 * native module), so an embedder on Postgres need not install it.
 */
const loadBetterSqlite3 = async () => {
  try {
    return (await import("better-sqlite3")).default
  } catch (error) {
    throw new Error("openSqliteStorage needs the better-sqlite3 package: npm install better-sqlite3", {
      cause: error,
    })
  }
}

/**
 * Opens (creating when needed) a SQLite database with better-sqlite3 and returns the migrated
 * storage on it: WAL journal, `busy_timeout` and foreign keys on. One process only
 * (`capabilities.multiProcess` is false). It is typed as the storage port; its Kysely instance,
 * to query the tables yourself, is `kyselyStorageOf(storage).db` (`@payments-engine/adapters/kysely`).
 *
 * @example
 * const storage = await openSqliteStorage({ filename: "./data/payments.sqlite" })
 * const engine = createEngine({
 *   storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher(), serverSecret: { read: async () => secret },
 *   paymentProvider: createSandboxPaymentProvider(), bankLinker: createSandboxBankLinker(),
 * })
 * // ...
 * await storage.close()
 */
export const openSqliteStorage = async (options: SqliteStorageOptions): Promise<Storage> => {
  const { filename, busyTimeoutMs = 5000, onClose, onMigration } = options
  if (filename.trim() === "") throw new Error('openSqliteStorage: filename is empty (use ":memory:" for memory)')
  if (filename !== memory) mkdirSync(dirname(resolve(filename)), { recursive: true })
  const Database = await loadBetterSqlite3()
  const database = new Database(filename)
  try {
    database.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`)
    if (filename !== memory) {
      database.pragma("journal_mode = WAL")
      database.pragma("synchronous = NORMAL")
    }
    database.pragma("foreign_keys = ON")
  } catch (error) {
    database.close()
    throw error
  }
  const dialect = sqliteStorageDialect(database)
  const db = new Kysely<StorageTables>({ dialect })
  try {
    return await createKyselyStorage(db, {
      dialect: sqliteDialect,
      connection: dialect.connection,
      ...(onClose ? { onClose } : {}),
      ...(onMigration ? { onMigration } : {}),
    })
  } catch (error) {
    await db.destroy()
    throw error
  }
}
