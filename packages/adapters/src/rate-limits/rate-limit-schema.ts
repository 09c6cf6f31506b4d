/*
 * Where the Postgres rate-limit store keeps its counters, without the pg driver: the service
 * names the schema on every database, and only loads the store (and pg) on Postgres.
 */

/** The table of every limit's counters, one row per limit and key. */
export const rateLimitTable = "rate_limits"

/**
 * The schema of the counters beside a storage schema (its own, so the storage's migrations never
 * meet it): `<schema>_rate_limits`, or `payments_rate_limits` beside the default schema.
 *
 * @example
 * rateLimitSchema("tenant_a") // "tenant_a_rate_limits"
 */
export const rateLimitSchema = (storageSchema: string | undefined): string =>
  storageSchema === undefined ? "payments_rate_limits" : `${storageSchema}_rate_limits`
