import { CompiledQuery, type Kysely } from "kysely"

/*
 * Postgres names and schemas, without the pg driver: PGlite and the main entry's callers use them
 * too, and neither may need pg installed.
 */

/**
 * Quotes a Postgres identifier, doubling inner quotes.
 *
 * @example
 * quoteIdentifier('my "schema"') // "\"my \"\"schema\"\"\""
 */
export const quoteIdentifier = (name: string): string => {
  if (name.length === 0 || name.length > 63 || name.includes("\u0000")) {
    throw new Error(`invalid Postgres identifier ${JSON.stringify(name)}: 1 to 63 characters, no NUL`)
  }
  return `"${name.replaceAll('"', '""')}"`
}

/**
 * Creates a schema unless it exists. `create schema if not exists` can still fail when another
 * session creates it at the same moment; that case counts as success.
 *
 * @example
 * await ensureSchema(db, "tenant_a")
 */
export const ensureSchema = async <DB>(db: Kysely<DB>, schema: string): Promise<void> => {
  try {
    await db.executeQuery(CompiledQuery.raw(`create schema if not exists ${quoteIdentifier(schema)}`))
  } catch (error) {
    const { rows } = await db.executeQuery<{ found: number }>(
      CompiledQuery.raw("select 1 as found from pg_namespace where nspname = $1", [schema]),
    )
    if (rows.length === 0) throw error
  }
}

/**
 * The schema of graphile-worker's jobs: its default, or beside the storage's own schema (its
 * table names would clash with the storage's inside one schema).
 *
 * @example
 * graphileWorkerSchema("payments") // "payments_graphile_worker"
 */
export const graphileWorkerSchema = (schema: string | undefined): string => {
  if (schema === undefined) return "graphile_worker"
  const workerSchema = `${schema}_graphile_worker`
  // Postgres cuts longer names to 63 bytes, and two storages could then share one job queue.
  if (new TextEncoder().encode(workerSchema).length > 63) {
    throw new Error(
      `schema name too long: ${JSON.stringify(schema)} leaves no room for its job schema (47 bytes at most)`,
    )
  }
  return workerSchema
}
