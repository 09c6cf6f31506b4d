import { Effect } from "effect"
import { type PaymentEvent, paymentMachine } from "../../machines/payment-machine.ts"
import { decide } from "../../machines/stored-machine.ts"
import { type WebhookEventName, type WebhookEventNameOf, webhookEventCatalogue } from "../../model/events.ts"
import { toPayment } from "../../model/payment.ts"
import { notReceivedByProvider } from "../../model/types/payment.ts"
import type { Clock } from "../../ports/clock.ts"
import type { PaymentLogEvent } from "../../ports/job-runner.ts"
import type { PaymentOutcome } from "../../ports/payment-provider.ts"
import type {
  CompanyRecord,
  PaymentOutcomeCounts,
  PaymentProfileRecord,
  PaymentRecord,
  PaymentStatusChange,
  Repositories,
} from "../../ports/storage/index.ts"
import { type ActionCarriers, applyDecision } from "./decision-executor.ts"
import { enqueueJob } from "./job-queue.ts"
import { appendEvents, paymentEventPayload } from "./outbox.ts"
import type { ServicePorts } from "./service-ports.ts"
import { afterCommit, type Lifted, type ReadRepositories } from "./transaction.ts"

/** What a move of a payment knows beyond the row. */
export interface MoveOptions {
  /** Another writer is anyone who wrote the payment since it was last updated at this time. */
  readonly lastUpdate?: string
  /** The payment's source is a `debit` profile (a linked funding account): its start is reported. */
  readonly debit?: boolean
  /** The payment's two profiles, when the caller has read them: its events show them without reading them again. */
  readonly profiles?: ReadonlyArray<PaymentProfileRecord>
}

/** The company a payment belongs to, as far as moving it needs. */
export type PaymentOwner = Pick<CompanyRecord, "id" | "workspace_id">

const isPaymentEvent = (event: WebhookEventName): event is WebhookEventNameOf<"PaymentEvents"> =>
  Object.hasOwn(webhookEventCatalogue.PaymentEvents, event)

const loggedStatuses: ReadonlySet<string> = new Set<PaymentLogEvent["payment"]>(["completed", "failed", "cancelled"])

/**
 * Tells the job log, once `tx` commits, that `row` was created (`created`) or reached its
 * outcome; says nothing of other moves.
 */
export const logPayment = (
  ports: Pick<ServicePorts, "jobLog">,
  tx: Lifted<Repositories>,
  company: PaymentOwner,
  row: PaymentRecord,
  created = false,
): Effect.Effect<void> => {
  const log = ports.jobLog
  if (log === undefined || !(created || loggedStatuses.has(row.status))) return Effect.void
  const event: PaymentLogEvent = {
    payment: created ? "created" : (row.status as PaymentLogEvent["payment"]),
    workspaceId: company.workspace_id,
    companyId: row.company_id,
    paymentId: row.id,
    batched: row.payment_batch_id !== null,
    ...(created ? {} : { durationMs: Date.parse(row.updated_at) - Date.parse(row.created_at) }),
  }
  return afterCommit(tx, () => log(event))
}

/** Payments with their profiles, in one query for the profiles. */
export const withProfiles = (
  tx: Lifted<ReadRepositories>,
  rows: ReadonlyArray<PaymentRecord>,
  withIdempotencyKey = true,
) =>
  Effect.gen(function* () {
    const ids = [...new Set(rows.flatMap((r) => [r.from_profile_id, r.to_profile_id]))]
    const found = rows.length === 0 ? [] : yield* tx.paymentProfiles.findMany(rows[0]!.company_id, ids)
    return rows.map((row) => toPayment(row, found, { withIdempotencyKey }))
  })

/**
 * Moving payments through the payment machine, for every service that does: the machine decides,
 * a compare-and-set writes the status, and what the machine says the move implies (an outbox
 * event, a queued execution) is carried out in the same transaction, on the workspace's clock.
 * Counting a payment in its batch is the batch lanes' (`batch-lanes.ts`, `move`): a count may
 * start the batch's next lanes or end it.
 */
export const paymentMoves = (ports: ServicePorts) => {
  /** The outbox event `event` of a payment, with the payment as it now is. */
  const paymentEvent = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    event: WebhookEventName,
    profiles: ReadonlyArray<PaymentProfileRecord> | undefined,
  ) =>
    Effect.gen(function* () {
      if (!isPaymentEvent(event)) {
        return yield* Effect.dieMessage(`the payment machine emitted ${event}, which is not a payment event`)
      }
      const data =
        profiles === undefined
          ? (yield* withProfiles(tx, [row]))[0]!
          : toPayment(row, profiles, { withIdempotencyKey: true })
      const payload = paymentEventPayload(event, { now: clock.now(), companyId: company.id, data })
      yield* appendEvents(ports, tx, [{ workspaceId: company.workspace_id, companyId: company.id, payload }], clock)
    })

  /**
   * How a payment carries out its machine's events and jobs; counting in its batch is the
   * caller's. Its events show `profiles` when given, else the profiles read for them.
   */
  const carriers = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    profiles?: ReadonlyArray<PaymentProfileRecord>,
  ): ActionCarriers & Required<Pick<ActionCarriers, "emit" | "enqueue">> => ({
    emit: (action) => paymentEvent(clock, tx, company, row, action.event, profiles),
    enqueue: (action) => {
      if (action.job === "execute_payment") {
        return enqueueJob(ports, tx, {
          kind: action.job,
          payload: { payment_id: row.id, workspace_id: company.workspace_id, company_id: row.company_id },
          workspaceId: company.workspace_id,
        })
      }
      if (action.job === "execute_batch_payments" && row.payment_batch_id !== null) {
        return enqueueJob(ports, tx, {
          kind: action.job,
          payload: {
            batch_id: row.payment_batch_id,
            workspace_id: company.workspace_id,
            payment_ids: [row.id],
            company_id: row.company_id,
          },
          workspaceId: company.workspace_id,
        })
      }
      return Effect.dieMessage(
        `the payment machine asked for ${JSON.stringify(action)}, which payments do not carry out`,
      )
    },
  })

  /**
   * Moves a stored payment by one machine event with a compare-and-set and carries out what the
   * machine says the move implies, except counting it in its batch: that is left to the caller,
   * as `counted`. Undefined when the machine refuses or another writer won.
   */
  const moveUncounted = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    event: PaymentEvent,
    change: PaymentStatusChange,
    options: MoveOptions = {},
  ): Effect.Effect<{ readonly moved: PaymentRecord; readonly counted: PaymentOutcomeCounts } | undefined> =>
    Effect.gen(function* () {
      const context = { batched: row.payment_batch_id !== null, debit: options.debit === true }
      const decision = decide(paymentMachine, row, event, context)
      if (decision === undefined) return undefined
      const counted = { succeeded: 0, failed: 0 }
      const moved = yield* applyDecision(paymentMachine, decision, {
        compareAndSet: (status) =>
          tx.payments.compareAndSetStatus(row.id, row.status, status, change, options.lastUpdate),
        carriers: (moved) => ({
          ...carriers(clock, tx, company, moved, options.profiles),
          count_in_batch: (action) =>
            Effect.sync(() => {
              counted[action.outcome] += 1
            }),
        }),
      })
      if (moved === undefined) return undefined
      yield* logPayment(ports, tx, company, moved)
      return { moved, counted }
    })

  return { carriers, moveUncounted, withProfiles }
}

/**
 * A processing payment's move to its outcome: completed or failed as the provider's outcome
 * says; without an outcome (the provider never received it) failed as not received.
 */
export const settlement = (
  clock: Clock,
  outcome: PaymentOutcome | undefined,
): { readonly event: PaymentEvent; readonly change: PaymentStatusChange } => {
  const updated_at = clock.now().toISOString()
  if (outcome === undefined)
    return { event: { type: "fail" }, change: { failure_reason: notReceivedByProvider, updated_at } }
  return {
    event: { type: outcome.status === "completed" ? "complete" : "fail" },
    change: {
      provider_payment_id: outcome.providerPaymentId,
      ...(outcome.status === "failed" ? { failure_reason: outcome.reason } : {}),
      updated_at,
    },
  }
}
