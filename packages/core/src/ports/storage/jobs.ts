import type { WorkspaceId } from "../../model/types/ids.ts"
import type { JobRequest } from "../../model/types/job.ts"
import type { Awaitable } from "../awaitable.ts"

export type { JobRequest } from "../../model/types/job.ts"

export interface JobRepository {
  /**
   * Queues the job in this transaction, unless a job with the same `key` is already queued or
   * running. A runner of the storage sees it once the transaction commits, never before.
   *
   * @example
   * declare const jobId: JobId, now: string, nextHour: string
   * await tx.jobs.enqueue({ id: jobId, kind: "purge_idempotency", payload: "{}",
   *   run_at: nextHour, key: "schedule:purge_idempotency", max_attempts: 1, created_at: now, workspace_id: null })
   */
  enqueue(job: JobRequest): Awaitable<void>
  /**
   * The workspace's test clock moved `ms` ahead (sandbox mode): its jobs that wait fall due `ms`
   * earlier by the engine's clock, in this transaction; other workspaces' jobs do not move.
   */
  bringForward(workspaceId: WorkspaceId, ms: number): Awaitable<void>
  /**
   * Removes the jobs of these keys that no runner has started, in this transaction: a job whose
   * work another job has taken over. One a runner has already started is left to run (or, on a
   * runner that cannot tell, removed but still run to its end, never retried).
   */
  removeUnstarted(keys: ReadonlyArray<string>): Awaitable<void>
}
