import { EventEmitter } from "node:events"
import {
  defaultJobLane,
  type JobHandlers,
  type JobKind,
  type JobRepository,
  type JobRunner,
  type JobRunnerOptions,
  type JobRunReport,
  type JobRunScope,
} from "@payments-engine/core"
import { jobLogFields } from "@payments-engine/core/effect"
import {
  type Job,
  type JobHelpers,
  Logger,
  parseCronItems,
  type Runner,
  run,
  runMigrations,
  runOnce,
  type TaskList,
  type WorkerEvents,
} from "graphile-worker"
import { type Kysely, sql } from "kysely"
import type pg from "pg"
import { preparedQuery } from "../storage/prepared-query.ts"
import type { StorageTables } from "../storage/storage-tables.ts"
import { describeFailure, interruptedFailure } from "./embedded-job-runner.ts"
import type { KyselyJobs } from "./kysely-job-table.ts"
import { patientCronPool } from "./patient-cron-pool.ts"

type Db = Kysely<StorageTables>

/** Where graphile-worker keeps its jobs: its own schema, next to the storage's. */
export interface GraphileJobsOptions {
  /** The pool graphile-worker runs on (the storage's). */
  readonly pool: pg.Pool
  /** The schema of graphile-worker's tables and functions, e.g. `graphile_worker`. */
  readonly workerSchema: string
}

/**
 * A worker whose heartbeat is older than this has died; its jobs are unlocked for others. Five
 * beats missed: a process killed mid-job has its jobs run again within about seven seconds (this,
 * a beat, and graphile-worker's poll), inside the 30 s crash-recovery bound with room for a
 * restart; a live process would have to stall its event loop this long to be taken for dead.
 */
export const deadWorkerMs = 5_000
/** How often live workers beat, and how often dead workers' jobs are looked for. */
const heartbeatMs = 1_000
/** How long {@link JobRunner.runDue} waits at most for jobs another worker has in hand. */
const inHandWaitMs = 30_000
/**
 * How often runDue looks whether they are done: soon at first (this process's own worker is
 * usually about to finish), then less and less often, up to twice graphile-worker's poll.
 */
const inHandFirstLookMs = 20
const inHandLookMaxMs = 500
/** How long a worker that graphile-worker stopped on its own waits before it starts again. */
const relaunchDelayMs = 1_000
/**
 * Rounds of runDue at most, so a job that stays due cannot hold a caller forever. A batch of 500
 * payments run in one lane queues each next payment as the last one ends: 500 rounds, with room.
 */
const maxRounds = 1000

const quietLogger = (log: JobRunnerOptions["log"]) =>
  new Logger(() => (level, message) => {
    if (level === "error") log?.({ error: new Error(`graphile-worker: ${message}`) })
  })

/**
 * Installs or upgrades graphile-worker's schema (a no-op when current). Safe when several
 * processes start together: graphile-worker takes a lock for it.
 */
export const migrateGraphileJobs = (options: GraphileJobsOptions): Promise<void> =>
  runMigrations({ pgPool: options.pool, schema: options.workerSchema, logger: quietLogger(undefined) })

/** A job as {@link graphileJobRepository} hands it to graphile-worker. */
interface GraphileJob {
  readonly kind: string
  readonly payload: string
  readonly delayMs: number
  readonly maxAttempts: number
  readonly key: string | null
  /** The job's one flag (its workspace), or null. */
  readonly flag: string | null
  /** Its graphile-worker `queue_name`, or null. */
  readonly queue: string | null
}

/**
/**
 * The graphile-worker flag that names a job's workspace: graphile-worker's jobs have no column
 * of ours, and a flag is kept with the job and filtered on (we set no `forbiddenFlags`, so it
 * never holds a job back).
 */
const workspaceFlag = (workspaceId: string) => `workspace:${workspaceId}`

/**
 * What `add_job(..., job_key_mode => 'unsafe_dedupe')` does for a task graphile-worker knows, in
 * one statement compiled once per storage and run as a named statement (see `preparedQuery`): the
 * job row, left out when a job of its key waits or runs, and graphile-worker's NOTIFY for it
 * (`r` keeps two jobs of one transaction from folding into one notification). It answers
 * whether the task was known: for a kind never queued before in this database, the caller goes
 * through `add_job` itself, which records the task. `add_job` cost about 110 µs a call against
 * 70 for this statement, and made the commit slower too (docs/benchmarks.md): it is a PL/pgSQL
 * function that writes the task again at every call and returns the whole job row.
 */
const insertJobStatement = (workerSchema: string) =>
  preparedQuery((db: Db, job: GraphileJob) => ({
    compile: () =>
      sql<{ known: boolean }>`with task as (
          select id from ${sql.id(workerSchema, "_private_tasks")} where identifier = ${job.kind}
        ), added as (
          insert into ${sql.id(workerSchema, "_private_jobs")} (task_id, payload, run_at, max_attempts, key, flags)
          select task.id, ${job.payload}::json, now() + ${job.delayMs} * interval '1 millisecond',
            ${job.maxAttempts}, ${job.key},
            case when ${job.flag}::text is null then null else jsonb_build_object(${job.flag}::text, true) end
          from task
          on conflict (key) do nothing
          returning 1
        )
        select exists (select from task) as known,
          (select count(pg_notify('jobs:insert', '{"r":' || random()::text || ',"count":1}')) from added) as notified`.compile(
        db,
      ),
  }))

/** The same job through graphile-worker's own `add_job`, which records a task it does not know. */
const addJob = (db: Db, workerSchema: string, job: GraphileJob) =>
  sql`select from ${sql.id(workerSchema, "add_job")}(
    identifier => ${job.kind},
    payload => ${job.payload}::json,
    queue_name => ${job.queue}::text,
    run_at => now() + ${job.delayMs} * interval '1 millisecond',
    max_attempts => ${job.maxAttempts},
    job_key => ${job.key},
    flags => ${job.flag === null ? null : [job.flag]}::text[],
    job_key_mode => 'unsafe_dedupe'
  )`.execute(db)

/**
 * `tx.jobs` on graphile-worker: the job is written on the storage transaction's own connection,
 * so it exists exactly when the transaction commits, and graphile-worker's NOTIFY wakes the
 * workers of every process. The due time keeps its distance from the engine's now, in the
 * database's time; a key dedupes (`unsafe_dedupe`: while a job of that key waits or runs, no
 * other); the workspace is a flag, by which a workspace's test clock brings its jobs closer.
 */
export const graphileJobRepository = (
  db: Db,
  workerSchema: string,
  insertJob: ReturnType<typeof insertJobStatement>,
): JobRepository => ({
  enqueue: async (request) => {
    const job: GraphileJob = {
      kind: request.kind,
      payload: request.payload,
      delayMs: Math.max(0, Date.parse(request.run_at) - Date.parse(request.created_at)),
      maxAttempts: request.max_attempts,
      key: request.key,
      flag: request.workspace_id === null ? null : workspaceFlag(request.workspace_id),
      queue: request.queue ?? null,
    }
    // A job of a queue goes through add_job, which also keeps graphile-worker's queue row.
    if (job.queue !== null) {
      await addJob(db, workerSchema, job)
      return
    }
    const [result] = await insertJob(db, job)
    if (result?.known !== true) await addJob(db, workerSchema, job)
  },
  removeUnstarted: async (keys) => {
    if (keys.length === 0) return
    // What graphile-worker's `remove_job` does for one key, for several, and only to jobs never run.
    await sql`delete from ${sql.id(workerSchema, "_private_jobs")}
      where key = any(${keys}::text[]) and locked_at is null and attempts = 0`.execute(db)
  },
  bringForward: async (workspaceId, ms) => {
    if (ms === 0) return
    await sql`update ${sql.id(workerSchema, "_private_jobs")}
      set run_at = run_at - ${ms} * interval '1 millisecond'
      where locked_at is null and flags ? ${workspaceFlag(workspaceId)}`.execute(db)
  },
})

/**
 * Runs the engine's jobs on graphile-worker, so several engine processes share them: woken by
 * LISTEN/NOTIFY, retried with graphile-worker's backoff, scheduled kinds queued by its cron (each
 * slot once across processes). Every worker of this process beats in `job_workers`; a worker
 * silent for {@link deadWorkerMs} (its process was killed) has its jobs unlocked, so they run
 * again within seconds instead of after graphile-worker's four hours.
 *
 * Due times are engine times: when the engine's clock moves (a test's clock), `runDue` moves
 * every waiting job as much closer, then runs what is due. A workspace's test clock moves only
 * its own jobs, through `tx.jobs.bringForward`.
 */
export const graphileJobRunner = (
  db: Db,
  graphile: GraphileJobsOptions,
  handlers: JobHandlers,
  options: JobRunnerOptions,
): JobRunner => {
  const { pool, workerSchema } = graphile
  const { clock, log } = options
  const logger = quietLogger(log)
  const workers = new Set<string>()
  const offset = () => clock.now().getTime() - Date.now()
  let knownOffset = offset()
  /** Settles once graphile-worker's run has started (or failed to). */
  /** Each lane's graphile-worker run: settles once it has started (or failed to). */
  const background = new Map<string, Promise<void>>()
  /** Each lane's run while it is ours to stop. */
  const current = new Map<string, Runner>()
  const relaunch = new Map<string, ReturnType<typeof setTimeout>>()
  /** The kinds of each lane (`JobKind.lane`). */
  const lanes = new Map<string, Array<JobKind>>()
  for (const kind of handlers.kinds) {
    const lane = kind.lane ?? defaultJobLane
    lanes.set(lane, [...(lanes.get(lane) ?? []), kind])
  }
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let stopped = false
  let stopOnce: Promise<void> | undefined

  /** The tasks, counting in `count` the runs of the scope's workspace (every run without one). */
  const tasks = (
    count?: { ran: number; failed: number },
    scope: JobRunScope = {},
    kinds: ReadonlyArray<JobKind> = handlers.kinds,
  ): TaskList => {
    const flag = scope.workspaceId === undefined ? undefined : workspaceFlag(scope.workspaceId)
    return Object.fromEntries(
      kinds.map(({ kind }) => [
        kind,
        async (payload: unknown, helpers: JobHelpers) => {
          const counted = count !== undefined && (flag === undefined || helpers.job.flags?.[flag] === true)
          try {
            // graphile-worker counts an attempt as it takes the job, so this run's is the count.
            await handlers.run(kind, payload, { attempt: helpers.job.attempts })
            if (counted) count.ran += 1
          } catch (error) {
            if (counted) {
              count.ran += 1
              count.failed += 1
            }
            throw error
          }
        },
      ]),
    )
  }

  const events = (): WorkerEvents => {
    const emitter = new EventEmitter() as WorkerEvents
    emitter.on("worker:create", ({ worker }) => {
      workers.add(worker.workerId)
      beat().catch((error: unknown) => log?.({ error }))
    })
    emitter.on("worker:release", ({ worker }) => {
      workers.delete(worker.workerId)
    })
    // Each run's start, by job id, for its duration; the run's end event removes it.
    const startedAt = new Map<string, number>()
    emitter.on("job:start", ({ job }) => void startedAt.set(job.id, performance.now()))
    const ran = (job: Job) => {
      const started = startedAt.get(job.id)
      startedAt.delete(job.id)
      return {
        kind: job.task_identifier,
        attempt: job.attempts,
        ...(started === undefined ? {} : { durationMs: Math.round(performance.now() - started) }),
        fields: jobLogFields(job.payload),
      }
    }
    emitter.on("job:success", ({ job }) => log?.({ ...ran(job), outcome: "done" }))
    emitter.on("job:error", ({ job, error }) => log?.({ ...ran(job), outcome: "retry", error: describeFailure(error) }))
    emitter.on("job:failed", ({ job, error }) =>
      log?.({ ...ran(job), outcome: "given_up", error: describeFailure(error) }),
    )
    return emitter
  }

  const beat = async () => {
    const ids = [...workers]
    if (ids.length > 0) {
      await sql`insert into job_workers (worker_id, seen_at)
        select id, now()::text from unnest(${ids}::text[]) as id
        on conflict (worker_id) do update set seen_at = excluded.seen_at`.execute(db)
    }
    await unlockDeadWorkers()
  }

  /**
   * Releases the jobs of workers that stopped beating (their process died), and logs as given up
   * those of them that used their last attempt: graphile-worker counts an attempt when it takes a
   * job, so a job that kills its process is not taken again once its attempts are used, but no
   * worker is left to say so.
   */
  const unlockDeadWorkers = async () => {
    const { rows } = await sql<{ worker: string; spent_kind: string | null }>`
      select jobs.locked_by as worker,
             case when jobs.attempts >= jobs.max_attempts then tasks.identifier end as spent_kind
      from ${sql.id(workerSchema, "_private_jobs")} as jobs
      join ${sql.id(workerSchema, "_private_tasks")} as tasks on tasks.id = jobs.task_id
      where jobs.locked_by is not null
        and jobs.locked_at < now() - ${deadWorkerMs} * interval '1 millisecond'
        and not exists (
          select 1 from job_workers
          where job_workers.worker_id = jobs.locked_by
            and job_workers.seen_at::timestamptz > now() - ${deadWorkerMs} * interval '1 millisecond'
        )`.execute(db)
    if (rows.length > 0) {
      const dead = [...new Set(rows.map((row) => row.worker))]
      await sql`select ${sql.id(workerSchema, "force_unlock_workers")}(${dead}::text[])`.execute(db)
      for (const { spent_kind: kind } of rows)
        if (kind !== null) log?.({ kind, outcome: "given_up", error: interruptedFailure })
    }
    await sql`delete from job_workers where seen_at::timestamptz < now() - interval '1 hour'`.execute(db)
  }

  const latestMigration = async (): Promise<number> => {
    const { rows } = await sql<{ id: number }>`select max(id) as id from ${sql.id(workerSchema, "migrations")}`.execute(
      db,
    )
    return Number(rows[0]?.id ?? 0)
  }

  const startHeartbeat = () => {
    if (heartbeat !== undefined || stopped) return
    heartbeat = setInterval(() => {
      beat().catch((error: unknown) => log?.({ error }))
    }, heartbeatMs)
    heartbeat.unref()
  }

  /** Moves waiting jobs as much closer as the engine's clock moved since the last look. */
  const followClock = async () => {
    const now = offset()
    const moved = now - knownOffset
    knownOffset = now
    if (moved <= 0) return
    await sql`update ${sql.id(workerSchema, "_private_jobs")}
      set run_at = greatest(now(), run_at - ${moved} * interval '1 millisecond')
      where locked_at is null and run_at > now()`.execute(db)
  }

  /** Jobs due now that a worker has in hand or nobody has taken yet. */
  const dueOrInHand = async (): Promise<{ due: number; inHand: number }> => {
    const { rows } = await sql<{ due: string | number; in_hand: string | number }>`
      select count(*) filter (where locked_at is null and run_at <= now() and attempts < max_attempts) as due,
             count(*) filter (where locked_at is not null) as in_hand
      from ${sql.id(workerSchema, "_private_jobs")}`.execute(db)
    return { due: Number(rows[0]?.due ?? 0), inHand: Number(rows[0]?.in_hand ?? 0) }
  }

  return {
    start: () => {
      if (background.size > 0 || stopped) return
      startHeartbeat()
      const exitCodeAtStart = process.exitCode
      /**
       * One graphile-worker run per lane, with the lane's kinds as its task list and the lane's
       * concurrency: a lane's jobs take only its own workers, so deliveries waiting on a silent
       * receiver never hold a payment back. Each run keeps a LISTEN connection of the pool.
       */
      const launch = async (lane: string, kinds: ReadonlyArray<JobKind>): Promise<void> => {
        try {
          const migrated = await latestMigration()
          const workerEvents = events()
          let runner: Runner | undefined
          const stopping = new AbortController()
          // graphile-worker says "stop" as it begins stopping, on its own or when asked: from
          // then on its runner refuses a second stop, so it is no longer ours to stop.
          workerEvents.on("stop", () => {
            stopping.abort()
            if (runner !== undefined && current.get(lane) === runner) current.delete(lane)
          })
          const cron = parseCronItems(
            kinds.flatMap((k) =>
              k.schedule === undefined
                ? []
                : [
                    {
                      task: k.kind,
                      match: k.schedule.cron,
                      identifier: k.kind,
                      options: { backfillPeriod: 0, maxAttempts: 1 },
                    },
                  ],
            ),
          )
          runner = await run(
            {
              pgPool: patientCronPool(pool, stopping.signal, (error) => log?.({ error })),
              schema: workerSchema,
              concurrency: Math.max(1, options.lanes?.[lane] ?? 1),
              noHandleSignals: true,
              pollInterval: 1000,
              logger,
              events: workerEvents,
              parsedCronItems: cron,
            },
            tasks(undefined, {}, kinds),
          )
          if (!stopping.signal.aborted) current.set(lane, runner)
          const onEnd = () => void ended(lane, kinds, migrated)
          runner.promise.then(onEnd, onEnd)
        } catch (error) {
          // The database is away (a restart, an outage): the lane starts again once it answers.
          log?.({ error })
          launchLater(lane, kinds)
        }
      }
      const launchLater = (lane: string, kinds: ReadonlyArray<JobKind>) => {
        if (stopped) return
        const timer = setTimeout(() => {
          if (!stopped) background.set(lane, launch(lane, kinds))
        }, relaunchDelayMs)
        timer.unref()
        relaunch.set(lane, timer)
      }
      /**
       * graphile-worker 0.16 announces migrations on a channel of the whole database: a breaking
       * migration of another schema's job tables (a new storage beside this one) stops every
       * worker of the database and sets exit code 57. When our schema is as it was, the
       * migration was elsewhere: the exit code is not ours, and the worker starts again.
       */
      const ended = async (lane: string, kinds: ReadonlyArray<JobKind>, migrated: number) => {
        if (stopped) return
        try {
          if ((await latestMigration()) !== migrated) {
            log?.({
              error: new Error("graphile-worker's schema was migrated by a newer version: no more jobs run here"),
            })
            return
          }
          if (process.exitCode === 57) process.exitCode = exitCodeAtStart
        } catch (error) {
          log?.({ error })
        }
        launchLater(lane, kinds)
      }
      for (const [lane, kinds] of lanes) background.set(lane, launch(lane, kinds))
    },
    runDue: async (scope): Promise<JobRunReport> => {
      startHeartbeat()
      const count = { ran: 0, failed: 0 }
      await followClock()
      for (let round = 0; round < maxRounds; round += 1) {
        await runOnce(
          { pgPool: pool, schema: workerSchema, noHandleSignals: true, logger, events: events() },
          tasks(count, scope),
        )
        const deadline = Date.now() + inHandWaitMs
        let left = await dueOrInHand()
        let pause = inHandFirstLookMs
        while (left.due === 0 && left.inHand > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, pause))
          pause = Math.min(pause * 2, inHandLookMaxMs)
          left = await dueOrInHand()
        }
        if (left.due === 0) return count
      }
      throw new Error(`jobs still due after ${maxRounds} rounds: is a job failing forever?`)
    },
    // Once only: a shutdown stops the runner first, then closes the engine, which stops it again
    // and must wait for the same job in hand.
    stop: () => {
      stopOnce ??= (async () => {
        stopped = true
        clearInterval(heartbeat)
        for (const timer of relaunch.values()) clearTimeout(timer)
        await Promise.all(background.values())
        const runners = [...current.values()]
        current.clear()
        await Promise.all(runners.map((runner) => runner.stop()))
      })()
      return stopOnce
    },
  }
}

/** Jobs on graphile-worker in its schema of the storage's database; its NOTIFY wakes the runners. */
export const graphileKyselyJobs = (db: Db, options: GraphileJobsOptions): KyselyJobs => {
  const insertJob = insertJobStatement(options.workerSchema)
  return {
    repository: (trx) => graphileJobRepository(trx, options.workerSchema, insertJob),
    createRunner: (handlers, runnerOptions) => graphileJobRunner(db, options, handlers, runnerOptions),
    committed: () => {},
  }
}
