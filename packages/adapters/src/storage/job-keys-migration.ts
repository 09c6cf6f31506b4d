import { type Kysely, type Migration, sql } from "kysely"
import type { StorageDialect } from "./migrations.ts"

/**
 * Job keys and attempts for the embedded runner's table, which now claims in memory (its
 * `locked_until` column is no longer written): at most one queued job per key; jobs queued before
 * get the five attempts payment jobs had. On Postgres, the heartbeats of
 * graphile-worker's workers, so a killed process's jobs are released within seconds.
 */
export const jobKeysSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const text = dialect === "postgres" ? sql`text collate "C"` : sql`text`
    await db.schema.alterTable("jobs").addColumn("job_key", text).execute()
    await db.schema
      .alterTable("jobs")
      .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(5))
      .execute()
    await db.schema
      .createIndex("jobs_one_queued_per_key")
      .on("jobs")
      .column("job_key")
      .unique()
      .where(sql.ref("state"), "=", "queued")
      .execute()
    if (dialect === "postgres") {
      await db.schema
        .createTable("job_workers")
        .addColumn("worker_id", text, (c) => c.primaryKey())
        .addColumn("seen_at", text, (c) => c.notNull())
        .execute()
    }
  },
})
