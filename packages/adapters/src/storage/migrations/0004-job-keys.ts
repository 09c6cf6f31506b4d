import { type Kysely, type Migration, sql } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createTable } from "./column-helpers.ts"

/**
 * Job keys and attempts for the embedded runner's table, which now claims in memory (its
 * `locked_until` column is no longer written): at most one queued job per key; jobs queued before
 * get the five attempts payment jobs had. Where graphile-worker runs (`hostsGraphileWorker`), the
 * heartbeats of its workers, so a killed process's jobs are released within seconds.
 */
export const jobKeysSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { textType, key, text } = columnHelpers(dialect)
    await db.schema.alterTable("jobs").addColumn("job_key", textType).execute()
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
    if (dialect.hostsGraphileWorker) await createTable(db, "job_workers", { worker_id: key, seen_at: text })
  },
})
