/**
 * A background job to queue in the caller's transaction: it exists exactly when the change that
 * needs it commits, on every storage. Claiming, retries, backoff and waking belong to the storage's
 * {@link JobRunner}, not to this repository.
 */
export interface JobRequest {
  readonly id: string
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
  /** Runs at most, failed ones included; the last failure gives the job up. */
  readonly max_attempts: number
  /** The engine's now when the job was queued. */
  readonly created_at: string
  /**
   * The workspace the job works for, whose test clock moves it ({@link JobRepository.bringForward});
   * null for the engine's own upkeep (scheduled kinds).
   */
  readonly workspace_id: string | null
}

export interface JobRepository {
  /**
   * Queues the job in this transaction, unless a job with the same `key` is already queued or
   * running. A runner of the storage sees it once the transaction commits, never before.
   *
   * @example
   * await tx.jobs.enqueue({ id: "job_1", kind: "execute_payment", payload: '{"payment_id":"pay_1"}',
   *   run_at: now, key: "execute_payment:pay_1", max_attempts: 5, created_at: now, workspace_id: "ws_1" })
   */
  enqueue(job: JobRequest): Promise<void>
  /**
   * The workspace's test clock moved `ms` ahead (sandbox mode): its jobs that wait fall due `ms`
   * earlier by the engine's clock, in this transaction; other workspaces' jobs do not move.
   */
  bringForward(workspaceId: string, ms: number): Promise<void>
}
