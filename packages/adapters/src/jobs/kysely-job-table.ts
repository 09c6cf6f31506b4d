import type {
  Awaitable,
  JobHandlers,
  JobId,
  JobRepository,
  JobRequest,
  JobRunner,
  JobRunnerOptions,
} from "@payments-engine/core"
import { type Kysely, sql } from "kysely"
import { andThen } from "../storage/awaitable.ts"
import { preparedQuery } from "../storage/prepared-query.ts"
import type { StorageTables } from "../storage/storage-tables.ts"
import { embeddedJobQueue, type JobTable, type QueuedJob } from "./embedded-job-runner.ts"

type Db = Kysely<StorageTables>

/** Queuing a job is on every payment's path: compiled once (see preparedQuery). */
const insertQueuedJob = preparedQuery((db: Db, job: JobRequest) =>
  db
    .insertInto("jobs")
    .values({
      id: job.id,
      kind: job.kind,
      payload: job.payload,
      run_at: job.run_at,
      attempts: 0,
      state: "queued",
      locked_until: null,
      last_error: null,
      job_key: job.key,
      max_attempts: job.max_attempts,
      created_at: job.created_at,
      updated_at: job.created_at,
      workspace_id: job.workspace_id,
      queue: job.queue ?? null,
    })
    // The conflict target names the partial index's condition, so SQLite and Postgres both use it.
    .onConflict((oc) => oc.column("job_key").where(sql<boolean>`state = 'queued' and job_key is not null`).doNothing()),
)

/** Taking a job is on every job's path: compiled once. */
const takeJob = preparedQuery((db: Db, take: { id: JobId; attempts: number; read: number; updated_at: string }) =>
  db
    .updateTable("jobs")
    .set({ attempts: take.attempts, updated_at: take.updated_at })
    .where("id", "=", take.id)
    .where("state", "=", "queued")
    // As read: a job another runner has run since (and retried) is not taken again now.
    .where("attempts", "=", take.read)
    .returning("id"),
)

const insertQueued = (db: Db, job: JobRequest): Awaitable<void> => andThen(insertQueuedJob(db, job), () => undefined)

/**
 * `tx.jobs` of a storage whose jobs are rows of its own `jobs` table. Bringing a workspace's jobs
 * closer rewrites each of its queued rows: a sandbox's few, and timestamps are text, which SQL
 * cannot subtract from on both dialects alike.
 */
export const kyselyJobRepository = (db: Db): JobRepository => ({
  enqueue: (job) => insertQueued(db, job),
  removeUnstarted: async (keys) => {
    if (keys.length === 0) return
    await db
      .deleteFrom("jobs")
      .where("job_key", "in", keys)
      // The partial index's own condition, as a literal, so the keys are looked up in it.
      .where(sql<boolean>`state = 'queued' and job_key is not null`)
      .where("attempts", "=", 0)
      .execute()
  },
  bringForward: async (workspaceId, ms) => {
    if (ms === 0) return
    const rows = await db
      .selectFrom("jobs")
      .select(["id", "run_at"])
      .where("workspace_id", "=", workspaceId)
      .where("state", "=", "queued")
      .execute()
    for (const row of rows) {
      const runAt = new Date(Date.parse(row.run_at) - ms).toISOString()
      await db.updateTable("jobs").set({ run_at: runAt }).where("id", "=", row.id).execute()
    }
  },
})

/**
 * The `jobs` table as the embedded runner reads and settles it, each call its own statement.
 *
 * @example
 * const queue = embeddedJobQueue(kyselyJobTable(db))
 */
export const kyselyJobTable = (db: Db): JobTable => ({
  due: async (now, kinds, limit, busyQueues) => {
    if (kinds.length === 0) return []
    let query = db
      .selectFrom("jobs")
      .select(["id", "kind", "payload", "run_at", "attempts", "max_attempts", "workspace_id", "queue"])
      .where("state", "=", "queued")
      .where("run_at", "<=", now)
      .where("kind", "in", kinds)
    if (busyQueues.length > 0) {
      query = query.where((eb) => eb.or([eb("queue", "is", null), eb("queue", "not in", busyQueues)]))
    }
    const rows = await query.orderBy("run_at").orderBy("id").limit(limit).execute()
    return rows.map(
      (row): QueuedJob => ({ ...row, attempts: Number(row.attempts), max_attempts: Number(row.max_attempts) }),
    )
  },
  nextRunAt: async (kinds, after) => {
    if (kinds.length === 0) return undefined
    const query = db
      .selectFrom("jobs")
      .select((eb) => eb.fn.min("run_at").as("next"))
      .where("state", "=", "queued")
      .where("run_at", ">", after)
      .where("kind", "in", kinds)
    return (await query.executeTakeFirst())?.next ?? undefined
  },
  take: async (id, change) => {
    const taken = await takeJob(db, { id, ...change, read: change.attempts - 1 })
    return taken.length > 0
  },
  finish: async (id) => {
    await db.deleteFrom("jobs").where("id", "=", id).execute()
  },
  retry: async (id, change) => {
    await db.updateTable("jobs").set(change).where("id", "=", id).where("state", "=", "queued").execute()
  },
  giveUp: async (id, change) => {
    await db
      .updateTable("jobs")
      .set({ ...change, state: "failed" })
      .where("id", "=", id)
      .where("state", "=", "queued")
      .execute()
  },
  enqueue: (job) => db.transaction().execute(async (trx) => insertQueued(trx, job)),
})

/** How a Kysely storage queues and runs its jobs. */
export interface KyselyJobs {
  /** `tx.jobs` over a transaction. */
  repository(trx: Db): JobRepository
  createRunner(handlers: JobHandlers, options: JobRunnerOptions): JobRunner
  /** A transaction that queued jobs has committed. */
  committed(): void
}

/** Jobs as rows of the storage's `jobs` table, run in this process by the embedded runner. */
export const embeddedKyselyJobs = (db: Db): KyselyJobs => {
  const queue = embeddedJobQueue(kyselyJobTable(db))
  return { repository: kyselyJobRepository, createRunner: queue.createRunner, committed: queue.notify }
}
