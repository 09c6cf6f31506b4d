import { sql } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"

/**
 * What the storage's SQL may rely on in Postgres: every feature {@link StorageDialect} names. A
 * Postgres server takes several processes and overlapping transactions. Loads no driver, so the
 * main entry exports it.
 *
 * @example
 * const storage = await createKyselyStorage(db, { dialect: postgresDialect })
 */
export const postgresDialect: StorageDialect = {
  name: "postgres",
  supportsReturning: true,
  supportsPartialIndexes: true,
  supportsOnConflict: true,
  supportsConflictTargetWhere: true,
  supportsTransactionalDdl: true,
  supportsRowLocks: true,
  supportsUpdateFromValues: true,
  supportsWritingCte: true,
  supportsSchemas: true,
  hostsGraphileWorker: true,
  textType: sql`text collate "C"`,
  capabilities: { multiProcess: true, concurrentTransactions: true },
}
