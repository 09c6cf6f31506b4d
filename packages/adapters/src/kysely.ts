/*
 * `@payments-engine/adapters/kysely`: the storage over Kysely as Kysely sees it (its tables, the
 * dialects, the migrations, the repositories and job tables), for those who query the tables
 * themselves, build a storage from a Kysely instance of their own or run the migrations apart.
 * The main entry's openers return the storage port only and name no Kysely type, so that a
 * program embedding the engine does not make its tsc check Kysely's declarations (docs/decisions.md,
 * "Public types").
 */
export { embeddedKyselyJobs, type KyselyJobs, kyselyJobTable } from "./jobs/kysely-job-table.ts"
export { kyselyRepositories } from "./storage/kysely-repositories.ts"
export {
  createKyselyStorage,
  type KyselyStorage,
  type KyselyStorageOptions,
  kyselyStorageOf,
} from "./storage/kysely-storage.ts"
export {
  type MigrateStorageOptions,
  migrateStorage,
  pendingStorageMigrations,
  storageMigrations,
} from "./storage/migrations/storage-migrations.ts"
export { postgresDialect } from "./storage/postgres/postgres-dialect.ts"
export { ensureSchema, graphileWorkerSchema, quoteIdentifier } from "./storage/postgres/postgres-schemas.ts"
export { sqliteDialect, sqliteStorageDialect } from "./storage/sqlite/sqlite-dialect.ts"
export type { StorageDialect } from "./storage/storage-dialect.ts"
export type * from "./storage/storage-tables.ts"
