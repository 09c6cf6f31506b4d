/*
 * `@payments-engine/adapters`: the ports' implementations an embedder passes to `createEngine`.
 * Its declarations name core's public types and Node's only (docs/decisions.md, "Public types").
 */
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
// The Postgres rate-limit store is in `./postgres.ts`, as the Postgres storage is (below).
export { memoryRateLimitStore } from "./rate-limits/memory-rate-limit-store.ts"
export { rateLimitSchema, rateLimitTable } from "./rate-limits/rate-limit-schema.ts"
export * from "./sandbox/index.ts"
export { type ScryptHasherOptions, scryptHasher } from "./secrets/scrypt-hasher.ts"
export type { MigrationStep } from "./storage/migrations/migration-step.ts"
export { oneProcessLiveness } from "./storage/one-process-liveness.ts"
// The Postgres storage and graphile-worker's runner are in `./postgres.ts` (the `/postgres`
// subpath): they load pg and graphile-worker, optional peers this entry must load without. What
// names Kysely's types (the tables, dialects, migrations, `KyselyStorage`) is in `./kysely.ts`
// (the `/kysely` subpath), so that this entry's declarations load none of Kysely's.
export { openSqliteStorage, type SqliteStorageOptions } from "./storage/sqlite/sqlite-storage.ts"
export {
  type OpenStorageOptions,
  openStorageFromUrl,
  parseStorageUrl,
  type StorageLocation,
  storageExists,
} from "./storage/storage-url.ts"
export {
  engineTracerName,
  type OpenTelemetryTracingOptions,
  openTelemetryTracing,
} from "./tracing/open-telemetry-tracing.ts"
export { createHttpWebhookTransport, type HttpWebhookTransportOptions } from "./webhooks/http-webhook-transport.ts"
