import type { RateLimitStore } from "@payments-engine/core"
import type pg from "pg"
import { RateLimiterMemory, RateLimiterPostgres } from "rate-limiter-flexible"
import { unbreakablePool } from "../storage/postgres/unbreakable-pool.ts"
import { flexibleRateLimitCounter } from "./flexible-rate-limit-counter.ts"
import { rateLimitTable } from "./rate-limit-schema.ts"

/** Options of {@link openPostgresRateLimitStore}. */
export interface PostgresRateLimitStoreOptions {
  /** A `postgres://` connection string: the service's own database. */
  readonly connectionString: string
  /** The schema of the counters' table, created when missing. */
  readonly schema: string
  /** Most connections of the store's own pool; 4 by default. */
  readonly maxConnections?: number
}

/** A quoted identifier; rate-limiter-flexible quotes names without escaping, so `"` is refused. */
const identifier = (name: string) => {
  if (
    name.length === 0 ||
    new TextEncoder().encode(name).length > 63 ||
    name.includes('"') ||
    name.includes("\u0000")
  ) {
    throw new Error(`invalid rate limit schema ${JSON.stringify(name)}: 1 to 63 bytes, no double quote or NUL`)
  }
  return `"${name}"`
}

/**
 * Creates the schema and table of the counters unless they exist, in the columns
 * rate-limiter-flexible's RateLimiterPostgres uses. `create ... if not exists` fails when two
 * processes run it at the same moment (a duplicate key in the catalog), so these run under a
 * transaction-scoped advisory lock.
 *
 * @example
 * declare const pool: import("pg").Pool
 * await createRateLimitTable(pool, "payments_rate_limits")
 */
export const createRateLimitTable = async (pool: pg.Pool, schema: string): Promise<void> => {
  const client = await pool.connect()
  try {
    await client.query("begin")
    await client.query("select pg_advisory_xact_lock(hashtext($1))", [`payments-engine rate limits ${schema}`])
    await client.query(`create schema if not exists ${identifier(schema)}`)
    await client.query(
      `create table if not exists ${identifier(schema)}.${identifier(rateLimitTable)} (
        key varchar(255) primary key,
        points integer not null default 0,
        expire bigint
      )`,
    )
    await client.query("commit")
  } catch (error) {
    await client.query("rollback").catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

/**
 * Counters in a Postgres table that every process on the database shares, so a limit holds
 * across them (rate-limiter-flexible's RateLimiterPostgres: one atomic upsert per request). A key
 * over its limit is then refused from memory until its window ends, without a query. Should the
 * database fail, each process falls back to counting in its own memory rather than refusing or
 * failing every request.
 *
 * @example
 * declare const connectionString: string
 * const store = await openPostgresRateLimitStore({ connectionString, schema: rateLimitSchema(undefined) })
 */
export const openPostgresRateLimitStore = async (options: PostgresRateLimitStoreOptions): Promise<RateLimitStore> => {
  const pool = unbreakablePool({ connectionString: options.connectionString, max: options.maxConnections ?? 4 })
  try {
    await createRateLimitTable(pool, options.schema)
  } catch (error) {
    await pool.end().catch(() => undefined)
    throw error
  }
  return {
    counter: ({ name, points, windowSeconds }) =>
      flexibleRateLimitCounter(
        new RateLimiterPostgres({
          storeClient: pool,
          storeType: "pool",
          schemaName: options.schema,
          tableName: rateLimitTable,
          tableCreated: true,
          keyPrefix: name,
          points,
          duration: windowSeconds,
          inMemoryBlockOnConsumed: points + 1,
          insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points, duration: windowSeconds }),
        }),
      ),
    close: () => pool.end(),
  }
}
