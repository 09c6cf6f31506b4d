export { type PGliteStorageDialectOptions, pgliteStorageDialect, SessionLock } from "./pglite/pglite-dialect.ts"
export { openTestPostgres, rawQuery, type TestPostgres, type TestPostgresOptions } from "./test-postgres.ts"
export { openTestSqlite, type TestSqlite, type TestSqliteOptions } from "./test-sqlite.ts"
export type { TestStorages } from "./test-storages.ts"
