import { Effect, Either, type ParseResult, Schema } from "effect"
import type { DomainError } from "../errors.ts"
import { PaymentBatchId, PaymentId, WebhookDeliveryId, WorkspaceId } from "../model/ids.ts"
import type { JobHandlers, JobKind, JobRun } from "../ports/job-runner.ts"
import { runToPromise } from "../services/steps/transaction.ts"

/** Attempts of a job before it is given up, unless its kind says otherwise. */
export const maxJobAttempts = 5

/** The payload of `execute_payment`: the payment to move through the provider. */
export const ExecutePaymentPayload = Schema.Struct({ payment_id: PaymentId, workspace_id: WorkspaceId })

/** The payload of the batch jobs: the batch, and the workspace whose clock it runs on. */
export const BatchJobPayload = Schema.Struct({ batch_id: PaymentBatchId, workspace_id: WorkspaceId })

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

/** The payload of `execute_batch_payments`: a batch lane's payments, claimed together, run one after another. */
export const BatchLanePayload = Schema.Struct({
  batch_id: PaymentBatchId,
  workspace_id: WorkspaceId,
  payment_ids: Schema.Array(PaymentId).pipe(Schema.minItems(1), Schema.maxItems(maxLanePayments)),
})

/** The payload of `deliver_webhook`: the delivery, and how many attempts it had when the job was queued. */
export const DeliverWebhookPayload = Schema.Struct({
  delivery_id: WebhookDeliveryId,
  workspace_id: WorkspaceId,
  attempt_count: Schema.Number,
})

/** Every kind of background job, with its payload schema: what enqueueing may name. */
export const jobPayloads = {
  /** Moves a pending payment outside a batch through the payment provider (queued by `payments.create`). */
  execute_payment: ExecutePaymentPayload,
  /** Runs payments of a processing batch through the provider, one lane's worth (queued as the batch starts them). */
  execute_batch_payments: BatchLanePayload,
  /** Starts a processing batch's lanes (queued by `paymentBatches.process`). */
  process_batch: BatchJobPayload,
  /** Expires a batch still building seven days after it was made (queued, due then, when it is made). */
  expire_batch: BatchJobPayload,
  /** Sends one webhook delivery (queued with it as its event is written, and again on its retry schedule). */
  deliver_webhook: DeliverWebhookPayload,
  /** Deletes expired idempotency records (scheduled hourly). */
  purge_idempotency: Schema.Struct({}),
  /** Deletes the used-up hosted-page tokens that have expired anyway (scheduled hourly). */
  purge_used_hosted_page_tokens: Schema.Struct({}),
  /** Settles the payments left processing whose provider outcome is unknown (scheduled every minute). */
  settle_unknown_payments: Schema.Struct({}),
} as const

export type JobKindName = keyof typeof jobPayloads
export type JobPayload<K extends JobKindName> = Schema.Schema.Type<(typeof jobPayloads)[K]>

/** Attempts of each kind's jobs. */
export const jobAttempts: { readonly [K in JobKindName]: number } = {
  execute_payment: maxJobAttempts,
  execute_batch_payments: maxJobAttempts,
  process_batch: maxJobAttempts,
  expire_batch: maxJobAttempts,
  deliver_webhook: maxJobAttempts,
  purge_idempotency: 1,
  purge_used_hosted_page_tokens: 1,
  settle_unknown_payments: 1,
}

/**
 * The lanes background work runs in, each with slots of its own (`JobRunnerOptions.lanes`): a
 * payment's execution never waits for a webhook delivery, a batch's lanes never take the slots
 * of single payments, and upkeep never takes either's.
 */
export type JobLaneName = "payments" | "batches" | "webhooks" | "housekeeping"

/** Jobs run at once in each lane, per process. */
export type JobLaneConcurrency = { readonly [L in JobLaneName]: number }

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

/** The kinds as runners see them, with their lanes and schedules. */
export const jobKinds: ReadonlyArray<JobKind & { readonly lane: JobLaneName }> = [
  { kind: "execute_payment", lane: "payments" },
  { kind: "execute_batch_payments", lane: "batches" },
  { kind: "process_batch", lane: "batches" },
  { kind: "expire_batch", lane: "batches" },
  { kind: "deliver_webhook", lane: "webhooks" },
  { kind: "purge_idempotency", lane: "housekeeping", schedule: { cron: "0 * * * *", everyMs: 60 * 60 * 1000 } },
  {
    kind: "purge_used_hosted_page_tokens",
    lane: "housekeeping",
    schedule: { cron: "30 * * * *", everyMs: 60 * 60 * 1000 },
  },
  { kind: "settle_unknown_payments", lane: "housekeeping", schedule: { cron: "* * * * *", everyMs: 60 * 1000 } },
]

/**
 * The handler of every job kind, built beside the engine from its ports (`createJobHandlers`):
 * a kind without a handler is a compile error.
 */
export type JobHandlerTable = {
  readonly [K in JobKindName]: (payload: JobPayload<K>, run: JobRun) => Effect.Effect<unknown, DomainError>
}

/** A payload that does not decode is a defect of whoever queued it: retrying cannot help. */
export class UndecodableJob extends Error {
  override readonly name = "UndecodableJob"
}

const isKind = (kind: string): kind is JobKindName => Object.hasOwn(jobPayloads, kind)

/**
 * The job catalogue as runners see it: the kinds, and `run`, which decodes a payload with its
 * kind's schema and runs the handler. A runner calls nothing else of the engine.
 *
 * @example
 * const catalogue = jobCatalogue(handlers)
 * await catalogue.run("purge_idempotency", {})
 */
export const jobCatalogue = (handlers: JobHandlerTable): JobHandlers => {
  const decoders = Object.fromEntries(
    Object.entries(jobPayloads).map(([kind, schema]) => [
      kind,
      Schema.decodeUnknownEither(schema as Schema.Schema<unknown>),
    ]),
  ) as Record<JobKindName, (payload: unknown) => Either.Either<unknown, ParseResult.ParseError>>
  return {
    kinds: jobKinds,
    run: async (kind, payload, run = { attempt: 1 }) => {
      if (!isKind(kind)) throw new UndecodableJob(`unknown job kind ${kind}`)
      const decoded = decoders[kind](payload)
      if (Either.isLeft(decoded)) throw new UndecodableJob(`undecodable ${kind} payload`)
      // The decoder of `kind` made the payload, so it is the payload of `kind`'s handler.
      const handler = handlers[kind] as (payload: unknown, run: JobRun) => Effect.Effect<unknown, DomainError>
      await runToPromise(handler(decoded.right, run).pipe(Effect.asVoid))
    },
  }
}
