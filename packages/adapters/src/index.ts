export { systemClock } from "./clock/system-clock.ts"
export { TestClock } from "./clock/test-clock.ts"
export { type RandomIdsOptions, randomIds } from "./ids/random-ids.ts"
export { type ScryptHasherOptions, scryptHasher } from "./secrets/scrypt-hasher.ts"
export { kyselyRepositories } from "./storage/kysely-repositories.ts"
export { createKyselyStorage, type KyselyStorage, type KyselyStorageOptions } from "./storage/kysely-storage.ts"
export {
  type MigrateStorageOptions,
  migrateStorage,
  type StorageDialect,
  storageMigrations,
} from "./storage/migrations.ts"
export {
  ensureSchema,
  openPostgresStorage,
  type PostgresStorageOptions,
  quoteIdentifier,
} from "./storage/postgres/postgres-storage.ts"
export { sqliteStorageDialect } from "./storage/sqlite/sqlite-dialect.ts"
export { openSqliteStorage, type SqliteStorageOptions } from "./storage/sqlite/sqlite-storage.ts"
export type * from "./storage/storage-tables.ts"
export { openStorageFromUrl, parseStorageUrl, type StorageLocation } from "./storage/storage-url.ts"
