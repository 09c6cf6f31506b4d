/*
 * `@payments-engine/adapters/postgres`: what needs the pg driver or graphile-worker (the storage,
 * its job runner, the rate limits' counters), the two optional peer dependencies an embedder on
 * SQLite leaves out (npm install pg graphile-worker). The main entry never loads this module
 * except through `openStorageFromUrl` with a postgres:// URL.
 */
export {
  deadWorkerMs,
  type GraphileJobsOptions,
  graphileJobRunner,
  graphileKyselyJobs,
  migrateGraphileJobs,
} from "./jobs/graphile-job-runner.ts"
export {
  createRateLimitTable,
  openPostgresRateLimitStore,
  type PostgresRateLimitStoreOptions,
} from "./rate-limits/postgres-rate-limit-store.ts"
export { rateLimitSchema, rateLimitTable } from "./rate-limits/rate-limit-schema.ts"
// Driver-free, so the `/kysely` entry has them too; here as well, so a Postgres caller needs one import.
export { postgresDialect } from "./storage/postgres/postgres-dialect.ts"
export {
  type PostgresEndpointChangesOptions,
  postgresEndpointChanges,
} from "./storage/postgres/postgres-endpoint-changes.ts"
export { type PostgresLivenessOptions, postgresLiveness } from "./storage/postgres/postgres-liveness.ts"
export { ensureSchema, graphileWorkerSchema, quoteIdentifier } from "./storage/postgres/postgres-schemas.ts"
export {
  openPostgresStorage,
  type PostgresStorageOptions,
  postgresStorageExists,
} from "./storage/postgres/postgres-storage.ts"
