export interface JobRecord {
  readonly id: string
  /** What to do, e.g. "execute_payment". */
  readonly kind: string
  /** JSON text. */
  readonly payload: string
  readonly run_at: string
  readonly attempts: number
  readonly state: "queued" | "done" | "failed"
  readonly locked_until: string | null
  readonly last_error: string | null
  readonly created_at: string
  readonly updated_at: string
}

export interface JobRepository {
  enqueue(row: JobRecord): Promise<void>
  /**
   * Claims up to `limit` queued jobs due at `now` whose lock is free, locking them until
   * `lockedUntil` and counting an attempt; each job is claimed by one caller only, also across
   * processes. Oldest `run_at` first.
   */
  claimDue(now: string, lockedUntil: string, limit: number): Promise<ReadonlyArray<JobRecord>>
  /** Marks a claimed job done. */
  finish(id: string, now: string): Promise<void>
  /** Puts a claimed job back in the queue to run at `runAt`. */
  retryAt(id: string, runAt: string, error: string, now: string): Promise<void>
  /** Gives a claimed job up for good. */
  fail(id: string, error: string, now: string): Promise<void>
  /** The earliest `run_at` of queued jobs, to know when to wake up. */
  nextRunAt(): Promise<string | undefined>
}
