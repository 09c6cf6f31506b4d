import { Effect } from "effect"
import { laneProgressSeconds, maxLanePayments } from "../../jobs/job-catalogue.ts"
import { maxBatchPayments } from "../../machines/batch-machine.ts"
import { type PaymentEvent, paymentMachine } from "../../machines/payment-machine.ts"
import { decide, type MachineAction } from "../../machines/stored-machine.ts"
import { type WebhookEventName, type WebhookEventNameOf, webhookEventCatalogue } from "../../model/events.ts"
import type { PaymentBatchId, PaymentId } from "../../model/ids.ts"
import { toPayment } from "../../model/payment.ts"
import type { Clock } from "../../ports/clock.ts"
import type { PaymentOutcome } from "../../ports/payment-provider.ts"
import type {
  CompanyRecord,
  PaymentBatchRecord,
  PaymentOutcomeCounts,
  PaymentRecord,
  PaymentStatusChange,
  Repositories,
} from "../../ports/storage/index.ts"
import { finishBatchIfDone } from "./batch-progress.ts"
import { enqueueJob } from "./job-queue.ts"
import { appendEvents, paymentEventPayload } from "./outbox.ts"
import type { ServicePorts } from "./service-ports.ts"
import type { Lifted } from "./transaction.ts"

/** What a move of a payment knows beyond the row. */
export interface MoveOptions {
  /** Another writer is anyone who wrote the payment since it was last updated at this time. */
  readonly lastUpdate?: string
  /** The payment's source is a `debit` profile (a linked funding account): its start is reported. */
  readonly debit?: boolean
}

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
      yield* appendEvents(ports, tx, [{ workspaceId: company.workspace_id, companyId: company.id, payload }], clock)
    })

  /**
   * How many payments a lane of `batch` claims at once: its unfinished payments spread over its
   * lanes, so the last ones still run side by side; at most what the lane starts in
   * {@link laneProgressSeconds} at the batch's rate, and at most {@link maxLanePayments}.
   */
  const laneSize = (batch: PaymentBatchRecord) => {
    const { concurrency, perSecond } = ports.batchExecution
    const unfinished = batch.total_count - batch.succeeded_count - batch.failed_count
    const byRate = Math.ceil((perSecond * laneProgressSeconds) / concurrency)
    return Math.min(maxLanePayments, byRate, Math.max(1, Math.ceil(unfinished / concurrency)))
  }

  /**
   * Starts payments of a batch in one lane: the machine decides each start, one compare-and-set
   * writes them all, and the executions the machine queues for them become one job of the lane.
   * The started payments, none when another writer started them first.
   */
  const startInLane = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    batchId: PaymentBatchId,
    rows: ReadonlyArray<PaymentRecord>,
  ): Effect.Effect<ReadonlyArray<PaymentRecord>> =>
    Effect.gen(function* () {
      const decisions = new Map(
        rows.flatMap((row) => {
          const decision = decide(paymentMachine, row, { type: "start" }, { batched: true })
          return decision?.status === "processing" && row.status === "pending" ? [[row.id, decision] as const] : []
        }),
      )
      if (decisions.size === 0) return []
      const updated_at = clock.now().toISOString()
      const started = yield* tx.payments.compareAndSetStatuses([...decisions.keys()], "pending", "processing", {
        updated_at,
      })
      const lane: PaymentId[] = []
      for (const row of started) {
        const actions = decisions.get(row.id)?.actions ?? []
        const inLane = (action: MachineAction) => action.type === "enqueue" && action.job === "execute_batch_payments"
        if (actions.some(inLane)) lane.push(row.id)
        yield* carryOut(
          clock,
          tx,
          company,
          row,
          actions.filter((action) => !inLane(action)),
        )
      }
      if (lane.length > 0) {
        yield* enqueueJob(ports, tx, {
          kind: "execute_batch_payments",
          payload: { batch_id: batchId, workspace_id: company.workspace_id, payment_ids: lane },
          workspaceId: company.workspace_id,
        })
      }
      return started
    })

  /**
   * Claims the next pending payments of a processing batch for one lane and queues their job;
   * none when no payment is left pending. Of two transactions that pick the same payments, the
   * compare-and-set lets one start them, and the other takes the next.
   */
  const claimLane = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    batch: PaymentBatchRecord,
    size = laneSize(batch),
  ): Effect.Effect<ReadonlyArray<PaymentRecord>> =>
    Effect.gen(function* () {
      for (let tries = 0; tries < maxBatchPayments; tries += 1) {
        const pending = yield* tx.payments.listInBatch(batch.id, size, "pending")
        if (pending.length === 0) return []
        const started = yield* startInLane(clock, tx, company, batch.id, pending)
        if (started.length > 0) return started
      }
      return []
    })

  /** Claims up to `lanes` lanes of a processing batch: how many payments they started. */
  const startLanes = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    batch: PaymentBatchRecord,
    lanes: number,
  ): Effect.Effect<number> =>
    Effect.gen(function* () {
      const size = laneSize(batch)
      let started = 0
      for (let lane = 0; lane < lanes; lane += 1) {
        const claimed = yield* claimLane(clock, tx, company, batch, size)
        if (claimed.length === 0) break
        started += claimed.length
      }
      return started
    })

  /**
   * Counts the outcome of a batch payment settled outside its lane (the sweep of unknown
   * outcomes, after its lane's job gave up) and ends the batch when this was its last payment.
   * When no lane of the batch is left running, its pending payments get new lanes.
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
      const counts = { succeeded: outcome === "succeeded" ? 1 : 0, failed: outcome === "failed" ? 1 : 0 }
      const batch = yield* tx.paymentBatches.recordOutcomes(batchId, counts, clock.now().toISOString())
      if (batch === undefined)
        return yield* Effect.dieMessage(`batch ${batchId} is not processing its payment ${row.id}`)
      const [running] = yield* tx.payments.listInBatch(batchId, 1, "processing")
      if (running === undefined) yield* startLanes(clock, tx, company, batch, ports.batchExecution.concurrency)
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
            if (action.job === "execute_payment") {
              return enqueueJob(ports, tx, {
                kind: action.job,
                payload: { payment_id: row.id, workspace_id: company.workspace_id },
                workspaceId: company.workspace_id,
              })
            }
            if (action.job === "execute_batch_payments" && row.payment_batch_id !== null) {
              return enqueueJob(ports, tx, {
                kind: action.job,
                payload: { batch_id: row.payment_batch_id, workspace_id: company.workspace_id, payment_ids: [row.id] },
                workspaceId: company.workspace_id,
              })
            }
            break
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
      const moved = yield* tx.payments.compareAndSetStatus(
        row.id,
        row.status,
        decision.status,
        change,
        options.lastUpdate,
      )
      if (moved === undefined) return undefined
      const counted = { succeeded: 0, failed: 0 }
      for (const action of decision.actions) if (action.type === "count_in_batch") counted[action.outcome] += 1
      yield* carryOut(
        clock,
        tx,
        company,
        moved,
        decision.actions.filter((action) => action.type !== "count_in_batch"),
      )
      return { moved, counted }
    })

  /**
   * Moves a stored payment by one machine event with a compare-and-set and carries out what the
   * machine says the move implies; undefined when the machine refuses or another writer won.
   */
  const move = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    event: PaymentEvent,
    change: PaymentStatusChange,
    options: MoveOptions = {},
  ): Effect.Effect<PaymentRecord | undefined> =>
    Effect.gen(function* () {
      const result = yield* moveUncounted(clock, tx, company, row, event, change, options)
      if (result === undefined) return undefined
      for (const outcome of ["succeeded", "failed"] as const) {
        for (let n = 0; n < result.counted[outcome]; n += 1) {
          yield* countInBatch(clock, tx, company, result.moved, outcome)
        }
      }
      return result.moved
    })

  return { carryOut, claimLane, move, moveUncounted, startLanes, withProfiles }
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

/** The `failure_reason` of a payment the provider says it never received. */
export const notReceivedByProvider = "Payment was not received by the provider"
