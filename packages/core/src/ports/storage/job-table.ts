import type { JobId, WorkspaceId } from "../../model/types/ids.ts"
import type { JobRequest } from "../../model/types/job.ts"

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
  /** Its queue (`JobRequest.queue`): one job of a queue runs at a time. */
  readonly queue: string | null
}

/**
 * The rows the embedded runner of `@payments-engine/adapters` (`embeddedJobQueue`) works on,
 * outside any engine transaction. The runner claims in memory (the runners of one storage share
 * their claims), so a storage that offers this table must be used by one process only
 * (`capabilities.multiProcess` false): a crash drops the claims with the process, and the jobs run
 * again as soon as the storage is reopened. Every time it is given (`now`, `after`, `updated_at`,
 * `run_at`) is the engine's clock: compare and store them as given, never the database's clock.
 * The contract suite checks a table given as `jobTable` (`job-table.*`).
 */
export interface JobTable {
  /**
   * Queued jobs of these kinds due at `now` (`run_at` at or before it), outside the queues
   * `busyQueues` (a job of no queue is never busy), oldest `run_at` first (then id: not id
   * first), at most `limit`. A job given up is never due.
   */
  due(
    now: string,
    kinds: ReadonlyArray<string>,
    limit: number,
    busyQueues: ReadonlyArray<string>,
  ): Promise<ReadonlyArray<QueuedJob>>
  /**
   * The earliest `run_at` strictly after `after` of queued jobs of these kinds, when the runner
   * should wake next: a job given up or done never counts.
   */
  nextRunAt(kinds: ReadonlyArray<string>, after: string): Promise<string | undefined>
  /**
   * The job starts a run: its attempt counts before the handler runs, in a write of its own, so a
   * job that kills the process each time it runs still reaches its `max_attempts`. False when the
   * job is no longer queued with one attempt fewer (removed since it was read:
   * `tx.jobs.removeUnstarted`; or run by another runner since): it does not run.
   */
  take(id: JobId, change: { attempts: number; updated_at: string }): Promise<boolean>
  /** The job is done: it leaves the table. */
  finish(id: JobId): Promise<void>
  /** The job failed and runs again at `run_at`. */
  retry(id: JobId, change: { run_at: string; attempts: number; last_error: string; updated_at: string }): Promise<void>
  /** The job failed for good; it stays in the table, for an operator, and never runs again. */
  giveUp(id: JobId, change: { attempts: number; last_error: string; updated_at: string }): Promise<void>
  /** Queues a job in a transaction of its own (scheduled kinds); the same key rules as `tx.jobs.enqueue`. */
  enqueue(job: JobRequest): Promise<void>
}
