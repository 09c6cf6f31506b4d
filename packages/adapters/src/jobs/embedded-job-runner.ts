import {
  defaultJobLane,
  type JobHandlers,
  JobId,
  type JobRunner,
  type JobRunnerOptions,
  type JobRunScope,
  type JobTable,
  type QueuedJob,
} from "@payments-engine/core"
import { jobLogFields } from "@payments-engine/core/effect"

export type { JobTable, QueuedJob } from "@payments-engine/core"

/** Delay before attempt n+1 after n failed ones (1 s, 5 s, 25 s, 125 s). */
export const embeddedRetryDelayMs = (failures: number): number => 1000 * 5 ** Math.max(0, failures - 1)

/** Jobs read per query of due jobs, besides those already in hand. */
const batchSize = 20
/** Longest sleep of a started runner: due times are by the engine clock, which may be moved. */
const maxSleepMs = 1000
/**
 * Jobs one {@link JobRunner.runDue} starts at most, so a job that stays due cannot hold a caller
 * forever. A batch of 500 payments run in one lane queues each next payment as the last one
 * ends: 500 jobs, with room to spare.
 */
const maxRuns = 20_000

/**
 * The jobs of one storage, shared by every runner made from it: a job one runner has in hand is
 * left alone by the others. `notify()` after a transaction that queued jobs commits wakes them.
 */
export interface EmbeddedJobQueue {
  createRunner(handlers: JobHandlers, options: JobRunnerOptions): JobRunner
  notify(): void
}

/** One lane of a runner: its kinds, its slots, and how many of them are taken. */
interface Lane {
  readonly kinds: Array<string>
  readonly slots: number
  running: number
}

/**
 * The embedded job runner: jobs are rows of the storage's own database (SQLite, PGlite, memory),
 * run in this process. Each lane of kinds has its own slots, and a job starts as soon as a slot
 * of its lane frees (no round waits for its slowest job), one job of a queue at a time. It claims
 * in memory, counts each run in the table as it starts (so a job that kills the process is given
 * up after its `max_attempts` runs, not run forever), retries with backoff by the engine's clock
 * ({@link embeddedRetryDelayMs}), gives a job up after its `max_attempts`, queues scheduled
 * kinds, and wakes when a transaction that queued jobs commits or a job of its own ends. A job
 * costs two writes of its own (its attempt counted, its row leaving the table) besides what its
 * handler does, and reading due jobs is shared by up to twenty jobs.
 *
 * @example
 * declare const table: JobTable
 * const queue = embeddedJobQueue(table)
 * const runner = queue.createRunner(handlers, { clock, lanes: { payments: 5, webhooks: 10 } })
 * runner.start()
 */
export const embeddedJobQueue = (table: JobTable): EmbeddedJobQueue => {
  const listeners = new Set<() => void>()
  const wakeAll = () => {
    for (const wake of listeners) wake()
  }
  /** Jobs a runner of this storage has started and not settled, each with its settling. */
  const inHand = new Map<JobId, Promise<void>>()
  /** The queues of those jobs: no other job of them starts meanwhile. */
  const busyQueues = new Set<string>()
  /** Told once when a job of this storage next settles: runDue waits so for jobs in hand. */
  const settleWaiters = new Set<() => void>()
  /** Runs of this queue's runners that have ended, counted as each leaves `inHand`. */
  let settledRuns = 0
  let turn: Promise<unknown> = Promise.resolve()
  /**
   * Runs `work` when no other runner of this storage is reading due jobs: two reading at once
   * would both see a job as not in hand.
   */
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const mine = turn.then(work)
    turn = mine.catch(() => undefined)
    return mine
  }

  const createRunner = (handlers: JobHandlers, options: JobRunnerOptions): JobRunner => {
    const { clock, log } = options
    const lanes = new Map<string, Lane>()
    const laneOf = new Map<string, Lane>()
    for (const { kind, lane: name = defaultJobLane } of handlers.kinds) {
      let lane = lanes.get(name)
      if (lane === undefined) {
        lane = { kinds: [], slots: Math.max(1, options.lanes?.[name] ?? 1), running: 0 }
        lanes.set(name, lane)
      }
      lane.kinds.push(kind)
      laneOf.set(kind, lane)
    }
    const kinds = handlers.kinds.map((k) => k.kind)
    const iso = (date: Date) => date.toISOString()
    /** This runner's jobs in flight, which `stop` waits for. */
    const mine = new Set<Promise<void>>()

    /** Runs a due job, or gives it up unrun when its last counted run never settled. */
    const runOne = async (job: QueuedJob): Promise<"done" | "failed" | "abandoned"> => {
      const payload: unknown = JSON.parse(job.payload)
      const fields = jobLogFields(payload)
      if (job.attempts >= job.max_attempts) {
        // Every run counted so far was started, and a run that fails at its last attempt is given
        // up there: this job's last run never settled, so the process ended during it.
        const error = interruptedFailure
        await table.giveUp(job.id, { attempts: job.attempts, last_error: error, updated_at: iso(clock.now()) })
        log?.({ kind: job.kind, outcome: "given_up", error, attempt: job.attempts, fields })
        return "abandoned"
      }
      const attempts = job.attempts + 1
      if (!(await table.take(job.id, { attempts, updated_at: iso(clock.now()) }))) return "abandoned"
      const started = performance.now()
      const ran = () => ({
        kind: job.kind,
        attempt: attempts,
        durationMs: Math.round(performance.now() - started),
        fields,
      })
      try {
        await handlers.run(job.kind, payload, { attempt: attempts })
        await table.finish(job.id)
        log?.({ ...ran(), outcome: "done" })
        return "done"
      } catch (cause) {
        const error = describeFailure(cause)
        const now = clock.now()
        if (attempts >= job.max_attempts) {
          await table.giveUp(job.id, { attempts, last_error: error, updated_at: iso(now) })
          log?.({ ...ran(), outcome: "given_up", error })
        } else {
          const runAt = new Date(now.getTime() + embeddedRetryDelayMs(attempts))
          await table.retry(job.id, { run_at: iso(runAt), attempts, last_error: error, updated_at: iso(now) })
          log?.({ ...ran(), outcome: "retry", error })
        }
        return "failed"
      }
    }

    /**
     * Starts the due jobs that find a free slot in their lane and their queue free, in this
     * runner's turn, and answers how many it started; `settled` hears of each as it ends.
     */
    const fill = (settled: (job: QueuedJob, outcome: "done" | "failed" | "abandoned") => void): Promise<number> =>
      inTurn(async () => {
        const open = [...lanes.values()].filter((lane) => lane.running < lane.slots)
        if (stopped || open.length === 0) return 0
        const due = await table.due(
          iso(clock.now()),
          open.flatMap((lane) => lane.kinds),
          batchSize + inHand.size,
          [...busyQueues],
        )
        let started = 0
        for (const job of due) {
          const lane = laneOf.get(job.kind)
          if (lane === undefined || lane.running >= lane.slots || inHand.has(job.id)) continue
          if (job.queue !== null && busyQueues.has(job.queue)) continue
          lane.running += 1
          if (job.queue !== null) busyQueues.add(job.queue)
          const run: Promise<void> = runOne(job)
            .then(
              (outcome) => settled(job, outcome),
              (error: unknown) => log?.({ error }),
            )
            .finally(() => {
              lane.running -= 1
              inHand.delete(job.id)
              settledRuns += 1
              mine.delete(run)
              if (job.queue !== null) busyQueues.delete(job.queue)
              wakeAll()
              for (const waiter of settleWaiters) waiter()
              settleWaiters.clear()
            })
          inHand.set(job.id, run)
          mine.add(run)
          started += 1
        }
        return started
      })

    /** The slot of each scheduled kind this runner last queued: a wake-up queues only a new one. */
    const queuedSlots = new Map<string, number>()
    const schedule = async () => {
      const now = clock.now()
      for (const kind of handlers.kinds) {
        if (kind.schedule === undefined) continue
        const every = kind.schedule.everyMs
        // The next slot strictly after now: a slot that has just run is not queued again.
        const runAt = new Date((Math.floor(now.getTime() / every) + 1) * every)
        if (queuedSlots.get(kind.kind) === runAt.getTime()) continue
        await table.enqueue({
          // The slot's own id, minted here rather than by `Ids`: the same whichever wake-up queues it.
          id: JobId.make(`job_schedule_${kind.kind}_${runAt.getTime()}`),
          kind: kind.kind,
          payload: "{}",
          run_at: iso(runAt),
          key: `schedule:${kind.kind}`,
          max_attempts: 1,
          created_at: iso(now),
          workspace_id: null,
        })
        queuedSlots.set(kind.kind, runAt.getTime())
      }
    }

    let started = false
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    let running: Promise<void> | undefined
    let again = false

    /**
     * Sleeps until the next job falls due (or a second, as the engine clock may be moved): jobs
     * due now that did not start wait for a slot or their queue, and the end of a job wakes it.
     */
    const sleep = async () => {
      const now = clock.now()
      const next = await table.nextRunAt(kinds, iso(now))
      if (stopped) return
      const wait = next === undefined ? maxSleepMs : Date.parse(next) - now.getTime()
      clearTimeout(timer)
      timer = setTimeout(wake, Math.max(0, Math.min(wait, maxSleepMs)))
      timer.unref?.()
    }

    const pass = async () => {
      try {
        await schedule()
        if ((await fill(() => {})) > 0) again = true
        if (!again) await sleep()
      } catch (error) {
        log?.({ error })
        if (!stopped) {
          clearTimeout(timer)
          timer = setTimeout(wake, maxSleepMs)
          timer.unref?.()
        }
      }
    }

    function wake(): void {
      if (!started || stopped) return
      if (running) {
        again = true
        return
      }
      again = false
      running = pass().finally(() => {
        running = undefined
        if (again && !stopped) wake()
      })
    }

    return {
      start: () => {
        if (started) return
        started = true
        listeners.add(wake)
        wake()
      },
      runDue: async (scope: JobRunScope = {}) => {
        const report = { ran: 0, failed: 0 }
        let ranAll = 0
        let runs = 0
        const counted = (job: QueuedJob, outcome: "done" | "failed" | "abandoned") => {
          if (outcome === "abandoned") return
          ranAll += 1
          if (scope.workspaceId !== undefined && job.workspace_id !== scope.workspaceId) return
          report.ran += 1
          if (outcome === "failed") report.failed += 1
        }
        const settledOnce = () => new Promise<void>((resolve) => settleWaiters.add(resolve))
        for (;;) {
          const settling = settledOnce()
          const settledBefore = settledRuns
          const startedNow = await fill(counted)
          runs += startedNow
          if (runs > maxRuns) {
            throw new Error(`jobs still due after ${maxRuns} runs: is a job failing to settle?`)
          }
          if (startedNow > 0) continue
          // A job that ended while `fill` looked freed a slot `fill` may have seen taken: look again.
          if (inHand.size === 0 && settledRuns === settledBefore) break
          // Nothing more can start until a job in hand (this runner's or another's) ends.
          await settling
        }
        // The started runners look again: a scheduled kind that just ran needs its next slot.
        if (ranAll > 0) wakeAll()
        return report
      },
      stop: async () => {
        stopped = true
        listeners.delete(wake)
        clearTimeout(timer)
        await running
        await Promise.all([...mine])
      },
    }
  }

  return { createRunner, notify: wakeAll }
}

/** The failure of a job whose last run never settled: its process ended during the run. */
export const interruptedFailure = "Interrupted: the process ended during the job's last run"

/**
 * A job's failure as stored and logged: a short description, never a payload or a provider's
 * response. The message is kept only for the engine's tagged errors, whose texts the engine
 * writes; any other error gives its class name alone, since a driver's or a library's message
 * may quote the data it was handed (as the HTTP binding's error logs do).
 */
export const describeFailure = (cause: unknown): string => {
  const tag = typeof cause === "object" && cause !== null ? (cause as { _tag?: unknown })._tag : undefined
  if (typeof tag !== "string") return cause instanceof Error ? cause.name.slice(0, 100) : "Error"
  const message = (cause as { message?: unknown }).message
  return (typeof message === "string" && message !== "" ? `${tag}: ${message}` : tag).slice(0, 500)
}
