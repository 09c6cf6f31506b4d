export { type Payer, payInProcess, paymentRequest, quoteRequest, setUpPayer } from "./sandbox-payer.ts"
export { openTestPostgres, rawQuery, type TestPostgres, type TestPostgresOptions } from "./test-postgres.ts"
export { openTestSqlite, type TestSqlite, type TestSqliteOptions } from "./test-sqlite.ts"
export type { TestStorages } from "./test-storages.ts"
