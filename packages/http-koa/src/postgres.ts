/*
 * `@payments-engine/http-koa/postgres`: the rate limits' counters in Postgres, which need the pg
 * driver, an optional peer dependency an embedder on SQLite leaves out (npm install pg
 * graphile-worker, for the storage too). The service loads it itself on Postgres.
 */
export {
  createRateLimitTable,
  openPostgresRateLimitStore,
  type PostgresRateLimitStoreOptions,
} from "./binding/rate-limits/postgres-rate-limit-store.ts"
// Driver-free, so the main entry has them too; here as well, so a Postgres caller needs one import.
export { rateLimitSchema, rateLimitTable } from "./binding/rate-limits/rate-limit-schema.ts"
