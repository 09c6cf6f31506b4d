import { Effect } from "effect"
import { maxBatchPayments } from "../machines/batch-machine.ts"
import { type PaymentEvent, paymentMachine } from "../machines/payment-machine.ts"
import { decide, type MachineAction } from "../machines/stored-machine.ts"
import { type WebhookEventName, type WebhookEventNameOf, webhookEventCatalogue } from "../model/events.ts"
import type { PaymentBatchId } from "../model/ids.ts"
import { toPayment } from "../model/payment.ts"
import type { Clock } from "../ports/clock.ts"
import type { CompanyRecord, PaymentRecord, PaymentStatusChange, Repositories } from "../ports/storage/index.ts"
import { finishBatchIfDone } from "./batch-progress.ts"
import { appendEvents, paymentEventPayload } from "./events.ts"
import { enqueueJob } from "./jobs-queue.ts"
import type { ServicePorts } from "./ports.ts"
import type { Lifted } from "./transaction.ts"

/** The company a payment belongs to, as far as moving it needs. */
export type PaymentOwner = Pick<CompanyRecord, "id" | "workspace_id">

const isPaymentEvent = (event: WebhookEventName): event is WebhookEventNameOf<"PaymentEvents"> =>
  Object.hasOwn(webhookEventCatalogue.PaymentEvents, event)

/** Payments with their profiles, in one query for the profiles. */
export const withProfiles = (tx: Lifted<Repositories>, rows: ReadonlyArray<PaymentRecord>, withIdempotencyKey = true) =>
  Effect.gen(function* () {
    const ids = [...new Set(rows.flatMap((r) => [r.from_profile_id, r.to_profile_id]))]
    const found = rows.length === 0 ? [] : yield* tx.paymentProfiles.findMany(rows[0]!.company_id, ids)
    return rows.map((row) => toPayment(row, found, { withIdempotencyKey }))
  })

/**
 * Moving payments through the payment machine, for every service that does: the machine decides,
 * a compare-and-set writes the status, and what the machine says the move implies (an outbox
 * event, a queued execution, a count in the payment's batch) is carried out in the same
 * transaction, on the workspace's clock.
 */
export const paymentMoves = (ports: ServicePorts) => {
  /** The outbox event `event` of a payment, with the payment as it now is. */
  const paymentEvent = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    event: WebhookEventName,
  ) =>
    Effect.gen(function* () {
      if (!isPaymentEvent(event)) {
        return yield* Effect.dieMessage(`the payment machine emitted ${event}, which is not a payment event`)
      }
      const [data] = yield* withProfiles(tx, [row])
      const payload = paymentEventPayload(event, { now: clock.now(), companyId: company.id, data: data! })
      yield* appendEvents({ ids: ports.ids, clock }, tx, [
        { workspaceId: company.workspace_id, companyId: company.id, payload },
      ])
    })

  /**
   * Counts a batch payment's outcome in its batch, hands the lane it ran in to the batch's next
   * pending payment, and ends the batch when this was its last payment.
   */
  const countInBatch = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    outcome: "succeeded" | "failed",
  ): Effect.Effect<void> =>
    Effect.gen(function* () {
      const batchId = row.payment_batch_id
      if (batchId === null) return yield* Effect.dieMessage(`payment ${row.id} counted in a batch it is not in`)
      const at = clock.now().toISOString()
      const batch = yield* tx.paymentBatches.recordOutcome(batchId, outcome, at)
      if (batch === undefined)
        return yield* Effect.dieMessage(`batch ${batchId} is not processing its payment ${row.id}`)
      yield* startNextInBatch(clock, tx, company, batchId)
      yield* finishBatchIfDone(ports, clock, tx, company.workspace_id, batch)
    })

  const carryOut = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    actions: ReadonlyArray<MachineAction>,
  ): Effect.Effect<void> =>
    Effect.forEach(
      actions,
      (action) => {
        switch (action.type) {
          case "emit":
            return paymentEvent(clock, tx, company, row, action.event)
          case "enqueue":
            if (action.job !== "execute_payment") break
            return enqueueJob(ports, tx, {
              kind: action.job,
              payload: { payment_id: row.id, workspace_id: company.workspace_id },
              workspaceId: company.workspace_id,
            })
          case "count_in_batch":
            return countInBatch(clock, tx, company, row, action.outcome)
        }
        return Effect.dieMessage(
          `the payment machine asked for ${JSON.stringify(action)}, which payments do not carry out`,
        )
      },
      { discard: true },
    )

  /**
   * Moves a stored payment by one machine event with a compare-and-set and carries out what the
   * machine says the move implies; undefined when the machine refuses or another writer won.
   * With `lastUpdate`, another writer is anyone who wrote the payment since it was last updated then.
   */
  const move = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    event: PaymentEvent,
    change: PaymentStatusChange,
    lastUpdate?: string,
  ): Effect.Effect<PaymentRecord | undefined> =>
    Effect.gen(function* () {
      const decision = decide(paymentMachine, row, event, { batched: row.payment_batch_id !== null })
      if (decision === undefined) return undefined
      const moved = yield* tx.payments.compareAndSetStatus(row.id, row.status, decision.status, change, lastUpdate)
      if (moved === undefined) return undefined
      yield* carryOut(clock, tx, company, moved, decision.actions)
      return moved
    })

  /**
   * Starts the batch's next pending payment in a lane that became free (the machine queues its
   * execution); nothing when none is left. Of two transactions that pick the same payment, the
   * compare-and-set lets one start it, and the other takes the next.
   */
  const startNextInBatch = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    batchId: PaymentBatchId,
  ): Effect.Effect<PaymentRecord | undefined> =>
    Effect.gen(function* () {
      for (let tries = 0; tries < maxBatchPayments; tries += 1) {
        const [next] = yield* tx.payments.listInBatch(batchId, 1, "pending")
        if (next === undefined) return undefined
        const started = yield* move(
          clock,
          tx,
          company,
          next,
          { type: "start" },
          { updated_at: clock.now().toISOString() },
        )
        if (started !== undefined) return started
      }
      return undefined
    })

  return { carryOut, move, startNextInBatch, withProfiles }
}
