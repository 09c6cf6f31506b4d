import type { JobId, WorkspaceId } from "./ids.ts"

// The types of `model/job.ts`, written out (docs/decisions.md, "Public types").

/**
 * A background job to queue in the caller's transaction: it
 * exists exactly when the change that needs it commits, on every storage. Claiming, retries,
 * backoff and waking belong to the storage's job runner, not to the jobs repository.
 */
export interface JobRequest {
  readonly id: JobId
  /** A kind of core's job catalogue, e.g. "execute_payment". */
  readonly kind: string
  /** The payload as JSON text; the catalogue decodes it with the kind's schema. */
  readonly payload: string
  /**
   * When the job is due, by the engine's clock (a workspace's test clock minus its offset);
   * `created_at` when it is due at once.
   */
  readonly run_at: string
  /**
   * At most one job with this key waits or runs at a time: enqueueing again while one does adds
   * nothing. Null for no such limit.
   */
  readonly key: string | null
  /**
   * Jobs of one queue run one at a time, whatever the runner's concurrency (the webhook deliveries
   * of one endpoint: a receiver that never answers holds one slot, not all of them); absent or
   * null for none. Graphile-worker's `queue_name`.
   */
  readonly queue?: string | null
  /** Runs at most, failed ones included; the last failure gives the job up. */
  readonly max_attempts: number
  /** The engine's now when the job was queued. */
  readonly created_at: string
  /**
   * The workspace the job works for, whose test clock moves it (`JobRepository.bringForward`);
   * null for the engine's own upkeep (scheduled kinds).
   */
  readonly workspace_id: WorkspaceId | null
}
