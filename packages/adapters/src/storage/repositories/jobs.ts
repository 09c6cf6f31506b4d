import type { JobRecord, JobRepository } from "@payments-engine/core"
import { type Kysely, type Selectable, sql } from "kysely"
import { preparedQuery } from "../prepared-query.ts"
import type { StorageTables } from "../storage-tables.ts"

type Db = Kysely<StorageTables>

const toJob = (row: Selectable<StorageTables["jobs"]>): JobRecord => ({
  ...row,
  attempts: Number(row.attempts),
  state: row.state as JobRecord["state"],
})

const insertJob = preparedQuery((db: Db, row: JobRecord) => db.insertInto("jobs").values(row))

/**
 * The job queue over one Kysely handle. `claimDue` decides in one statement and reads its
 * outcome from `RETURNING`, so it holds between concurrent transactions on Postgres.
 *
 * @example
 * const due = await kyselyJobRepository(trx).claimDue(now, lockedUntil, 10)
 */
export const kyselyJobRepository = (db: Db): JobRepository => ({
  enqueue: async (row) => {
    await insertJob(db, row)
  },
  claimDue: async (now, lockedUntil, limit) => {
    // The outer conditions repeat the inner ones: on Postgres a second claimer that waited on
    // the row lock re-checks them against the first claimer's write and skips the row.
    const rows = await db
      .updateTable("jobs")
      .set({ locked_until: lockedUntil, attempts: sql`attempts + 1`, updated_at: now })
      .where(
        "id",
        "in",
        db
          .selectFrom("jobs")
          .select("id")
          .where("state", "=", "queued")
          .where("run_at", "<=", now)
          .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
          .orderBy("run_at")
          .orderBy("id")
          .limit(limit),
      )
      .where("state", "=", "queued")
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
      .returningAll()
      .execute()
    return rows
      .map(toJob)
      .sort((a, b) => (a.run_at === b.run_at ? (a.id < b.id ? -1 : 1) : a.run_at < b.run_at ? -1 : 1))
  },
  finish: async (id, now) => {
    await db
      .updateTable("jobs")
      .set({ state: "done", locked_until: null, updated_at: now })
      .where("id", "=", id)
      .execute()
  },
  retryAt: async (id, runAt, error, now) => {
    await db
      .updateTable("jobs")
      .set({ state: "queued", run_at: runAt, last_error: error, locked_until: null, updated_at: now })
      .where("id", "=", id)
      .execute()
  },
  fail: async (id, error, now) => {
    await db
      .updateTable("jobs")
      .set({ state: "failed", last_error: error, locked_until: null, updated_at: now })
      .where("id", "=", id)
      .execute()
  },
  nextRunAt: async () =>
    (
      await db
        .selectFrom("jobs")
        .select((eb) => eb.fn.min("run_at").as("next"))
        .where("state", "=", "queued")
        .executeTakeFirst()
    )?.next ?? undefined,
})
