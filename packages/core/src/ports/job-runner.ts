import type { CompanyId, PaymentBatchId, PaymentId, WebhookEndpointId, WorkspaceId } from "../model/types/ids.ts"
import type { Clock } from "./clock.ts"

/** What one kind of background job needs from a runner. */
export interface JobKind {
  readonly kind: string
  /**
   * The lane its jobs run in ({@link JobRunnerOptions.lanes}): a lane's jobs take only its own
   * slots, so a kind that waits long (webhook deliveries) never holds back another lane's. Kinds
   * without one share the lane `default`.
   */
  readonly lane?: string
  /**
   * A job of this kind is queued on this schedule, if any: `cron` for runners that read cron
   * syntax, `everyMs` (the same period, from the epoch) for those that do not; tried once.
   */
  readonly schedule?: { readonly cron: string; readonly everyMs: number }
}

/**
 * Core's job catalogue as a runner sees it: the kinds, and one entry point that decodes a payload
 * with its kind's schema and runs the kind's handler.
 */
export interface JobHandlers {
  readonly kinds: ReadonlyArray<JobKind>
  /**
   * Runs one job; resolves when it is done, rejects when it should be tried again (the runner
   * decides when, and gives up after the job's `max_attempts`). `run` says which attempt this is
   * (1 when absent): a later one may find the work of an earlier run that never settled.
   */
  run(kind: string, payload: unknown, run?: JobRun): Promise<void>
}

/** Which run of a job this is, counted by the runner as each run starts (a crashed run counts too). */
export interface JobRun {
  readonly attempt: number
}

/** The outcome of one {@link JobRunner.runDue}. */
export interface JobRunReport {
  /** Jobs run, whatever their outcome (of the workspace asked about, if one was). */
  readonly ran: number
  /** Runs that failed (and were retried later or given up). */
  readonly failed: number
}

/** Which runs a {@link JobRunner.runDue} reports. */
export interface JobRunScope {
  /**
   * Count only the jobs of this workspace (`JobRequest.workspace_id`): every due job still runs,
   * but a workspace is not told about another's.
   */
  readonly workspaceId?: WorkspaceId
}

/**
 * A webhook endpoint's circuit opened (its deliveries wait until `until`) or closed (a 200), or
 * the engine disabled the endpoint (every attempt failed for 5 days).
 */
export interface CircuitLogEvent {
  readonly circuit: "opened" | "closed" | "disabled"
  readonly workspaceId: WorkspaceId
  readonly endpointId: WebhookEndpointId
  readonly consecutiveFailures: number
  readonly until: string | null
}

/**
 * What a job's log line may show of its payload (`jobLogFields` of the catalogue picks them): the
 * ids it acts on and how many payments it carries, nothing else.
 */
export interface JobLogFields {
  readonly workspace_id?: string
  readonly company_id?: string
  readonly batch_id?: string
  readonly payment_id?: string
  readonly delivery_id?: string
  readonly payment_count?: number
}

/** One run of a job ended: done, to be retried, or given up. */
export interface JobRunLogEvent {
  readonly kind: string
  readonly outcome: "done" | "retry" | "given_up"
  /** The failure's short description, when it failed. */
  readonly error?: string
  /** Which attempt this run was (1 for the first), where the runner knows it. */
  readonly attempt?: number
  /** How long the run took, in real milliseconds; absent for a job given up without a run. */
  readonly durationMs?: number
  /** The ids the job acts on, from its payload ({@link JobLogFields}). */
  readonly fields?: JobLogFields
}

/**
 * A batch started its payments, settled another `batchProgressEvery` of them, or ended, once the
 * write that did it committed. `status` is the batch's then; `durationMs`, on its end, runs from
 * its submission to its completion by the batch's clock (its workspace's test clock in a sandbox).
 */
export interface BatchLogEvent {
  readonly batch: "started" | "progress" | "completed"
  readonly workspaceId: WorkspaceId
  readonly companyId: CompanyId
  readonly batchId: PaymentBatchId
  readonly status: string
  readonly total: number
  readonly succeeded: number
  readonly failed: number
  readonly durationMs?: number
}

/**
 * A payment was created, or reached an outcome (completed, failed, cancelled), once the write
 * that did it committed. `durationMs`, on an outcome, runs from its creation to it by the
 * payment's clock (its workspace's test clock in a sandbox).
 */
export interface PaymentLogEvent {
  readonly payment: "created" | "completed" | "failed" | "cancelled"
  readonly workspaceId: WorkspaceId
  readonly companyId: CompanyId
  readonly paymentId: PaymentId
  /** The payment is one of a batch's. */
  readonly batched: boolean
  readonly durationMs?: number
}

/**
 * Told about background work and the payments' lives: jobs run, batches starting, moving on and
 * ending, payments created and settled, an endpoint's circuit opening or closing, and the
 * runner's own failures.
 */
export type JobRunnerLog = (
  event: JobRunLogEvent | BatchLogEvent | PaymentLogEvent | CircuitLogEvent | { readonly error: unknown },
) => void

export interface JobRunnerOptions {
  /** The engine's clock: due times are engine times, so a test clock drives due work. */
  readonly clock: Clock
  readonly log?: JobRunnerLog
  /**
   * Jobs one runner runs at once in each lane, by lane name ({@link JobKind.lane}); 1 in a lane
   * not named. Each lane starts a job as soon as one of its slots frees, whatever the other lanes
   * are doing. The engine names its lanes in `jobLanes`.
   */
  readonly lanes?: Readonly<Record<string, number>>
}

/** The lane of kinds that name none. */
export const defaultJobLane = "default"

/**
 * Runs the jobs of one storage. Each storage brings the runner that fits it (rows in the database
 * run in-process, or a job engine such as graphile-worker on Postgres); the engine asks the storage
 * for one with {@link Storage.createJobRunner}. A job is run by one runner at a time, also across
 * processes where the storage is shared, and a job interrupted by a crash runs again once the
 * storage is reopened.
 *
 * @example
 * const runner = storage.createJobRunner(handlers, { clock })
 * runner.start() // background work from now on
 * await runner.runDue() // or: run what is due now, and wait for it (the sandbox clock does)
 * await runner.stop()
 */
export interface JobRunner {
  /** Runs in the background from now on: wakes when jobs are queued or fall due. */
  start(): void
  /**
   * Runs every job due by the engine clock, including those the background run has in hand, and
   * resolves once none is left due; bounded, so a job that stays due cannot hold the caller forever.
   */
  runDue(scope?: JobRunScope): Promise<JobRunReport>
  /** Stops taking jobs and waits for the ones in flight. */
  stop(): Promise<void>
}
