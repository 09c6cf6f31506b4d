export {
  createSandboxBankLinker,
  type SandboxBankLinker,
  type SandboxBankLinkerOptions,
  type SandboxTestBank,
  sandboxTestBanks,
} from "./bank-link/sandbox-bank-linker.ts"
export { blobKeyPattern, checkedBlobKey } from "./blobs/blob-keys.ts"
export { createFileBlobStore, type FileBlobStore, type FileBlobStoreOptions } from "./blobs/file-blob-store.ts"
export { fileTypeDetector } from "./blobs/file-type-detector.ts"
export { createMemoryBlobStore, type MemoryBlobStore } from "./blobs/memory-blob-store.ts"
export { systemClock } from "./clock/system-clock.ts"
export { TestClock } from "./clock/test-clock.ts"
export { type RandomIdsOptions, randomIds } from "./ids/random-ids.ts"
export {
  type EmbeddedJobQueue,
  embeddedJobQueue,
  embeddedRetryDelayMs,
  type JobTable,
  type QueuedJob,
} from "./jobs/embedded-job-runner.ts"
export { embeddedKyselyJobs, type KyselyJobs, kyselyJobTable } from "./jobs/kysely-job-table.ts"
// The Postgres rate-limit store is in `./postgres.ts` too, for the same reason.
export { memoryRateLimitStore } from "./rate-limits/memory-rate-limit-store.ts"
export { rateLimitSchema, rateLimitTable } from "./rate-limits/rate-limit-schema.ts"
export * from "./sandbox/index.ts"
export { type ScryptHasherOptions, scryptHasher } from "./secrets/scrypt-hasher.ts"
export { kyselyRepositories } from "./storage/kysely-repositories.ts"
export { createKyselyStorage, type KyselyStorage, type KyselyStorageOptions } from "./storage/kysely-storage.ts"
export {
  type MigrateStorageOptions,
  migrateStorage,
  storageMigrations,
} from "./storage/migrations/storage-migrations.ts"
export { oneProcessLiveness } from "./storage/one-process-liveness.ts"
// The Postgres storage and graphile-worker's runner are in `./postgres.ts` (the `/postgres`
// subpath): they load pg and graphile-worker, optional peers this entry must load without.
export { postgresDialect } from "./storage/postgres/postgres-dialect.ts"
export { ensureSchema, graphileWorkerSchema, quoteIdentifier } from "./storage/postgres/postgres-schemas.ts"
export { sqliteDialect, sqliteStorageDialect } from "./storage/sqlite/sqlite-dialect.ts"
export { openSqliteStorage, type SqliteStorageOptions } from "./storage/sqlite/sqlite-storage.ts"
export type { StorageDialect } from "./storage/storage-dialect.ts"
export type * from "./storage/storage-tables.ts"
export {
  type OpenStorageOptions,
  openStorageFromUrl,
  parseStorageUrl,
  type StorageLocation,
} from "./storage/storage-url.ts"
export { createHttpWebhookTransport, type HttpWebhookTransportOptions } from "./webhooks/http-webhook-transport.ts"
