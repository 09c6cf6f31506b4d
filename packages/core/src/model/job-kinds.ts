import { Schema } from "effect"
import { CompanyId, PaymentBatchId, PaymentId, WebhookDeliveryId, WebhookRecoveryId, WorkspaceId } from "./ids.ts"

import type { JobKindName, JobLaneConcurrency, JobLaneName } from "./types/job-kinds.ts"

export * from "./types/job-kinds.ts"

/** Attempts of a job before it is given up, unless its kind says otherwise. */
export const maxJobAttempts = 5

/**
 * The company a job acts for, for its log line only: jobs queued before it was added have none.
 */
const ForTheLog = { company_id: Schema.optional(CompanyId) }

const executePaymentPayloadFields = { payment_id: PaymentId, workspace_id: WorkspaceId, ...ForTheLog }

/** The Schema of {@link ExecutePaymentPayload}, named so that declarations refer to it instead of copying it. */
export interface ExecutePaymentPayloadSchema extends Schema.Struct<typeof executePaymentPayloadFields> {}
/** The payload of `execute_payment`: the payment to move through the provider. */
export const ExecutePaymentPayload: ExecutePaymentPayloadSchema = Schema.Struct(executePaymentPayloadFields)

const batchJobPayloadFields = { batch_id: PaymentBatchId, workspace_id: WorkspaceId, ...ForTheLog }

/** The Schema of {@link BatchJobPayload}, named so that declarations refer to it instead of copying it. */
export interface BatchJobPayloadSchema extends Schema.Struct<typeof batchJobPayloadFields> {}
/** The payload of the batch jobs: the batch, and the workspace whose clock it runs on. */
export const BatchJobPayload: BatchJobPayloadSchema = Schema.Struct(batchJobPayloadFields)

/**
 * The most payments one `execute_batch_payments` job carries: enough that a lane's reads,
 * counts, transactions and job rows are shared by many payments when the rate is lifted
 * (docs/benchmarks.md, "Where batch time goes"). At a rate, a lane holds fewer: see
 * {@link laneProgressSeconds}.
 */
export const maxLanePayments = 50

/**
 * At a batch's rate, a lane holds what it starts in about this many seconds, so that the
 * batch's counts move that often (a lane's payments are settled and counted together).
 */
export const laneProgressSeconds = 2

const batchLanePayloadFields = {
  batch_id: PaymentBatchId,
  workspace_id: WorkspaceId,
  payment_ids: Schema.Array(PaymentId).pipe(Schema.minItems(1), Schema.maxItems(maxLanePayments)),
  ...ForTheLog,
}

/** The Schema of {@link BatchLanePayload}, named so that declarations refer to it instead of copying it. */
export interface BatchLanePayloadSchema extends Schema.Struct<typeof batchLanePayloadFields> {}
/** The payload of `execute_batch_payments`: a batch lane's payments, claimed together, run one after another. */
export const BatchLanePayload: BatchLanePayloadSchema = Schema.Struct(batchLanePayloadFields)

const deliverWebhookPayloadFields = {
  delivery_id: WebhookDeliveryId,
  workspace_id: WorkspaceId,
  attempt_count: Schema.Number,
  ...ForTheLog,
}

/** The Schema of {@link DeliverWebhookPayload}, named so that declarations refer to it instead of copying it. */
export interface DeliverWebhookPayloadSchema extends Schema.Struct<typeof deliverWebhookPayloadFields> {}
/** The payload of `deliver_webhook`: the delivery, and how many attempts it had when the job was queued. */
export const DeliverWebhookPayload: DeliverWebhookPayloadSchema = Schema.Struct(deliverWebhookPayloadFields)

const recoverWebhookDeliveriesPayloadFields = {
  recovery_id: WebhookRecoveryId,
  workspace_id: WorkspaceId,
  ...ForTheLog,
}

/** The Schema of {@link RecoverWebhookDeliveriesPayload}, named so that declarations refer to it instead of copying it. */
export interface RecoverWebhookDeliveriesPayloadSchema
  extends Schema.Struct<typeof recoverWebhookDeliveriesPayloadFields> {}
/** The payload of `recover_webhook_deliveries`: the recovery whose next page of failed deliveries to queue again. */
export const RecoverWebhookDeliveriesPayload: RecoverWebhookDeliveriesPayloadSchema = Schema.Struct(
  recoverWebhookDeliveriesPayloadFields,
)

/** The payload of the scheduled upkeep kinds: nothing. */
const NoPayload = Schema.Struct({})

/**
 * The lanes' concurrency when the engine is given none: `batches` is the batch concurrency
 * (`batchExecution.concurrency`), so these are the other three. A delivery job sends up to ten
 * deliveries of one endpoint at once, and one endpoint has one job running at a time, so ten
 * webhook slots serve ten endpoints that wait on their receivers' timeouts at once.
 */
export const defaultJobLaneConcurrency: Omit<JobLaneConcurrency, "batches"> = {
  payments: 5,
  webhooks: 10,
  housekeeping: 1,
}

/** What one kind of background job is, apart from the handler that carries it out. */
export interface JobKindDefinition {
  /** Decodes the payload a job of this kind was queued with. */
  readonly payload: Schema.Schema.AnyNoContext
  /** Runs at most, failed ones included (`JobRequest.max_attempts`). */
  readonly attempts: number
  /** The lane its jobs run in. */
  readonly lane: JobLaneName
  /** Queued on this schedule by the runner: `cron` syntax, or `everyMs` from the epoch (the same period). */
  readonly schedule?: { readonly cron: string; readonly everyMs: number }
}

const hourMs = 60 * 60 * 1000

/**
 * Every kind of background job, one record each: what enqueueing may name. The kind names, their
 * payload types, their attempts and the list runners claim all derive from this table, so a kind
 * added here is run by both runners, and one without a handler does not compile
 * (`JobHandlerTable`).
 */
export const jobKindDefinitions = {
  /** Moves a pending payment outside a batch through the payment provider (queued by `payments.create`). */
  execute_payment: { payload: ExecutePaymentPayload, attempts: maxJobAttempts, lane: "payments" },
  /** Runs payments of a processing batch through the provider, one lane's worth (queued as the batch starts them). */
  execute_batch_payments: { payload: BatchLanePayload, attempts: maxJobAttempts, lane: "batches" },
  /** Starts a processing batch's lanes (queued by `paymentBatches.process`). */
  process_batch: { payload: BatchJobPayload, attempts: maxJobAttempts, lane: "batches" },
  /** Expires a batch still building seven days after it was made (queued, due then, when it is made). */
  expire_batch: { payload: BatchJobPayload, attempts: maxJobAttempts, lane: "batches" },
  /** Sends one webhook delivery (queued with it as its event is written, and again on its retry schedule). */
  deliver_webhook: { payload: DeliverWebhookPayload, attempts: maxJobAttempts, lane: "webhooks" },
  /**
   * Queues again one page of an endpoint's failed deliveries of a recovery, then the next page's
   * job (queued by `webhookRecoveries.recover`; one at a time per workspace).
   */
  recover_webhook_deliveries: { payload: RecoverWebhookDeliveriesPayload, attempts: maxJobAttempts, lane: "webhooks" },
  /** Deletes expired idempotency records (scheduled hourly). */
  purge_idempotency: {
    payload: NoPayload,
    attempts: 1,
    lane: "housekeeping",
    schedule: { cron: "0 * * * *", everyMs: hourMs },
  },
  /** Deletes the used-up hosted-page tokens that have expired anyway (scheduled hourly). */
  purge_used_hosted_page_tokens: {
    payload: NoPayload,
    attempts: 1,
    lane: "housekeeping",
    schedule: { cron: "30 * * * *", everyMs: hourMs },
  },
  /** Settles the payments left processing whose provider outcome is unknown (scheduled every minute). */
  settle_unknown_payments: {
    payload: NoPayload,
    attempts: 1,
    lane: "housekeeping",
    schedule: { cron: "* * * * *", everyMs: 60 * 1000 },
  },
} as const satisfies { readonly [K in JobKindName]: JobKindDefinition }

/** The payload of a job of kind `K`, as its handler receives it. */
export type JobPayload<K extends JobKindName> = Schema.Schema.Type<(typeof jobKindDefinitions)[K]["payload"]>

/** Every kind's name, in the table's order. */
export const jobKindNames = Object.keys(jobKindDefinitions) as ReadonlyArray<JobKindName>

/** Attempts of each kind's jobs. */
export const jobAttempts: { readonly [K in JobKindName]: number } = Object.fromEntries(
  jobKindNames.map((kind) => [kind, jobKindDefinitions[kind].attempts]),
) as { readonly [K in JobKindName]: number }
