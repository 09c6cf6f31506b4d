import { Effect } from "effect"
import type { JobRecord } from "../ports/storage/index.ts"
import type { MoneyPorts } from "./money-ports.ts"
import { executePaymentJob, type Payments } from "./payments.ts"
import { inTransaction } from "./transaction.ts"

/** How long a claimed job is left to its runner before another runner may take it over. */
export const jobLockMs = 5 * 60 * 1000
/** Attempts before a job is given up. */
export const maxJobAttempts = 5
/** Delay before attempt n+1 (1 s, 5 s, 25 s, 125 s). */
export const jobRetryDelayMs = (attempts: number): number => 1000 * 5 ** Math.max(0, attempts - 1)

/** The outcome of one pass over due jobs. */
export interface JobRunReport {
  readonly ran: number
  readonly failed: number
}

/**
 * Runs background jobs stored through the storage port. Any number of runners (processes) may
 * call `runDue`: each job is claimed by one of them; a crashed runner's job is claimed again once
 * its lock expires, which is safe because every job is idempotent.
 */
export const makeJobs = (ports: MoneyPorts, payments: Payments) => {
  const handle = (job: JobRecord): Effect.Effect<void, unknown> => {
    const payload = JSON.parse(job.payload) as Record<string, string>
    switch (job.kind) {
      case executePaymentJob:
        return payments.execute(payload.payment_id ?? "", payload.workspace_id ?? "").pipe(Effect.asVoid)
      default:
        return Effect.fail(new Error(`Unknown job kind ${job.kind}`))
    }
  }

  const settle = (job: JobRecord, outcome: { ok: true } | { ok: false; error: string }) => {
    const now = ports.clock.now()
    const at = now.toISOString()
    return inTransaction(ports.storage, (tx) => {
      if (outcome.ok) return tx.jobs.finish(job.id, at)
      if (job.attempts >= maxJobAttempts) return tx.jobs.fail(job.id, outcome.error, at)
      const runAt = new Date(now.getTime() + jobRetryDelayMs(job.attempts)).toISOString()
      return tx.jobs.retryAt(job.id, runAt, outcome.error, at)
    })
  }

  return {
    /**
     * Runs the jobs due by the engine's clock, up to `limit`, one after another. Each job is
     * claimed just before it runs, so its lock ({@link jobLockMs}) covers its own run only: a
     * runner busy with a slow provider call never holds jobs it has not started, and another
     * runner cannot take over a job that is still running while its lock lasts.
     *
     * @example
     * await engine.jobs.runDue() // { ran: 3, failed: 0 }
     */
    runDue: (limit = 20): Effect.Effect<JobRunReport> =>
      Effect.gen(function* () {
        let ran = 0
        let failed = 0
        while (ran < limit) {
          const now = ports.clock.now()
          const [job] = yield* inTransaction(ports.storage, (tx) =>
            tx.jobs.claimDue(now.toISOString(), new Date(now.getTime() + jobLockMs).toISOString(), 1),
          )
          if (job === undefined) break
          ran += 1
          const outcome = yield* handle(job).pipe(
            Effect.map(() => ({ ok: true }) as const),
            Effect.catchAllCause((cause) => Effect.succeed({ ok: false, error: String(cause).slice(0, 500) } as const)),
          )
          if (!outcome.ok) failed += 1
          yield* settle(job, outcome)
        }
        return { ran, failed }
      }),

    /** When the next queued job is due, to sleep until then. */
    nextRunAt: (): Effect.Effect<string | undefined> => inTransaction(ports.storage, (tx) => tx.jobs.nextRunAt()),
  }
}

export type Jobs = ReturnType<typeof makeJobs>
