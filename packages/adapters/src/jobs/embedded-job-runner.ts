import {
  type JobHandlers,
  JobId,
  type JobRequest,
  type JobRunner,
  type JobRunnerOptions,
  type JobRunReport,
  type JobRunScope,
  type WorkspaceId,
} from "@payments-engine/core"

/** A queued job as the embedded runner reads it back. */
export interface QueuedJob {
  readonly id: JobId
  readonly kind: string
  /** JSON text. */
  readonly payload: string
  readonly run_at: string
  /** Runs started so far, counted as each starts: a run the process did not survive counts too. */
  readonly attempts: number
  /** Runs at most. */
  readonly max_attempts: number
  /** The workspace the job works for; null for the engine's own upkeep. */
  readonly workspace_id: WorkspaceId | null
}

/**
 * The rows the embedded runner works on, outside any engine transaction. The runner claims in
 * memory (the runners of one storage take turns), so a storage that offers this table must be
 * used by one process only (`capabilities.multiProcess` false): a crash drops the claims with the
 * process, and the jobs run again as soon as the storage is reopened.
 */
export interface JobTable {
  /** Queued jobs of these kinds due at `now`, oldest `run_at` first (then id), at most `limit`. */
  due(now: string, kinds: ReadonlyArray<string>, limit: number): Promise<ReadonlyArray<QueuedJob>>
  /** The earliest `run_at` of queued jobs of these kinds. */
  nextRunAt(kinds: ReadonlyArray<string>): Promise<string | undefined>
  /**
   * The job starts a run: its attempt counts before the handler runs, in a write of its own, so a
   * job that kills the process each time it runs still reaches its `max_attempts`. False when the
   * job is no longer queued (removed since the round read it: `tx.jobs.removeUnstarted`): it does not run.
   */
  take(id: JobId, change: { attempts: number; updated_at: string }): Promise<boolean>
  /** The job is done: it leaves the table. */
  finish(id: JobId): Promise<void>
  /** The job failed and runs again at `runAt`. */
  retry(id: JobId, change: { run_at: string; attempts: number; last_error: string; updated_at: string }): Promise<void>
  /** The job failed for good; it stays in the table, for an operator, and never runs again. */
  giveUp(id: JobId, change: { attempts: number; last_error: string; updated_at: string }): Promise<void>
  /** Queues a job in a transaction of its own (scheduled kinds); the same key rules as `tx.jobs.enqueue`. */
  enqueue(job: JobRequest): Promise<void>
}

/** Delay before attempt n+1 after n failed ones (1 s, 5 s, 25 s, 125 s). */
export const embeddedRetryDelayMs = (failures: number): number => 1000 * 5 ** Math.max(0, failures - 1)

/** What a round did: jobs run (as reported) and jobs settled, counting those given up unrun. */
interface Round {
  readonly settled: number
  readonly ran: number
  readonly report: JobRunReport
}

/** Jobs read per query of due jobs. */
const batchSize = 20
/** Longest sleep of a started runner: due times are by the engine clock, which may be moved. */
const maxSleepMs = 1000
/**
 * Batches of {@link JobRunner.runDue} at most, so a job that stays due cannot hold a caller
 * forever. A batch of 500 payments run in one lane queues each next payment as the last one
 * ends: 500 rounds, with room to spare.
 */
const maxRounds = 1000

/**
 * The jobs of one storage, shared by every runner made from it: the runners take turns, so a
 * job read as due by one is run by it alone. `notify()` after a transaction that queued jobs
 * commits wakes them.
 */
export interface EmbeddedJobQueue {
  createRunner(handlers: JobHandlers, options: JobRunnerOptions): JobRunner
  notify(): void
}

/**
 * The embedded job runner: jobs are rows of the storage's own database (SQLite, PGlite, memory),
 * run in this process. It claims in memory, counts each run in the table as it starts (so a job
 * that kills the process is given up after its `max_attempts` runs, not run forever), retries with backoff by the engine's clock
 * ({@link embeddedRetryDelayMs}), gives a job up after its `max_attempts`, queues scheduled
 * kinds, and wakes when a transaction that queued jobs commits. A job costs two writes of its own
 * (its attempt counted, its row leaving the table) besides what its handler does, and reading due jobs is shared by
 * up to twenty jobs.
 *
 * @example
 * const queue = embeddedJobQueue(table)
 * const runner = queue.createRunner(handlers, { clock })
 * runner.start()
 */
export const embeddedJobQueue = (table: JobTable): EmbeddedJobQueue => {
  const listeners = new Set<() => void>()
  const wakeAll = () => {
    for (const wake of listeners) wake()
  }
  let turn: Promise<unknown> = Promise.resolve()
  /**
   * Runs `work` when no other runner of this storage is in a round. A round reads due jobs in a
   * batch; another runner reading the same batch would run a job this one has just finished.
   */
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const mine = turn.then(work)
    turn = mine.catch(() => undefined)
    return mine
  }

  const createRunner = (handlers: JobHandlers, options: JobRunnerOptions): JobRunner => {
    const { clock, log } = options
    const concurrency = Math.max(1, options.concurrency ?? 1)
    const kinds = handlers.kinds.map((k) => k.kind)
    const iso = (date: Date) => date.toISOString()

    /** Runs a due job, or gives it up unrun when its last counted run never settled. */
    const runOne = async (job: QueuedJob): Promise<"done" | "failed" | "abandoned"> => {
      if (job.attempts >= job.max_attempts) {
        // Every run counted so far was started, and a run that fails at its last attempt is given
        // up there: this job's last run never settled, so the process ended during it.
        const error = interruptedFailure
        await table.giveUp(job.id, { attempts: job.attempts, last_error: error, updated_at: iso(clock.now()) })
        log?.({ kind: job.kind, outcome: "given_up", error })
        return "abandoned"
      }
      const attempts = job.attempts + 1
      if (!(await table.take(job.id, { attempts, updated_at: iso(clock.now()) }))) return "abandoned"
      try {
        await handlers.run(job.kind, JSON.parse(job.payload), { attempt: attempts })
        await table.finish(job.id)
        log?.({ kind: job.kind, outcome: "done" })
        return "done"
      } catch (cause) {
        const error = describeFailure(cause)
        const now = clock.now()
        if (attempts >= job.max_attempts) {
          await table.giveUp(job.id, { attempts, last_error: error, updated_at: iso(now) })
          log?.({ kind: job.kind, outcome: "given_up", error })
        } else {
          const runAt = new Date(now.getTime() + embeddedRetryDelayMs(attempts))
          await table.retry(job.id, { run_at: iso(runAt), attempts, last_error: error, updated_at: iso(now) })
          log?.({ kind: job.kind, outcome: "retry", error })
        }
        return "failed"
      }
    }

    /**
     * Runs a batch of the jobs due now, `concurrency` at a time, in this runner's turn: `settled` counts
     * the jobs it ran or gave up, `ran` those it ran, `report` those of the scope's workspace (all
     * of them without one).
     */
    const round = (scope: JobRunScope = {}): Promise<Round> =>
      inTurn(async () => {
        let ran = 0
        let settled = 0
        const report = { ran: 0, failed: 0 }
        const due = await table.due(iso(clock.now()), kinds, batchSize)
        let next = 0
        // `concurrency` workers take the batch's jobs in order, each one job at a time.
        const worker = async () => {
          while (next < due.length && !stopped) {
            const job = due[next]!
            next += 1
            const outcome = await runOne(job)
            settled += 1
            if (outcome === "abandoned") continue
            ran += 1
            if (scope.workspaceId !== undefined && job.workspace_id !== scope.workspaceId) continue
            report.ran += 1
            if (outcome === "failed") report.failed += 1
          }
        }
        await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker))
        return { settled, ran, report }
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

    const sleep = async () => {
      const next = await table.nextRunAt(kinds)
      if (stopped) return
      const wait = next === undefined ? maxSleepMs : Date.parse(next) - clock.now().getTime()
      clearTimeout(timer)
      timer = setTimeout(wake, Math.max(0, Math.min(wait, maxSleepMs)))
      timer.unref?.()
    }

    const pass = async () => {
      try {
        await schedule()
        const { settled } = await round()
        if (settled > 0) again = true
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
      runDue: async (scope) => {
        let ranAll = 0
        let ran = 0
        let failed = 0
        for (let rounds = 0; rounds < maxRounds; rounds += 1) {
          const batch = await round(scope)
          ranAll += batch.ran
          ran += batch.report.ran
          failed += batch.report.failed
          if (batch.settled === 0) {
            // The started runners look again: a scheduled kind that just ran needs its next slot.
            if (ranAll > 0) wakeAll()
            return { ran, failed }
          }
        }
        throw new Error(`jobs still due after ${maxRounds} rounds of ${batchSize}: is a job failing to settle?`)
      },
      stop: async () => {
        stopped = true
        listeners.delete(wake)
        clearTimeout(timer)
        await running
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
