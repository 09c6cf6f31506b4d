import { Effect, Either } from "effect"
import type { ProviderFailure } from "../../errors.ts"
import { batchMachine, maxBatchPayments } from "../../machines/batch-machine.ts"
import { type PaymentEvent, paymentMachine } from "../../machines/payment-machine.ts"
import { decide } from "../../machines/stored-machine.ts"
import type { PaymentBatchId, PaymentId, WorkspaceId } from "../../model/ids.ts"
import { laneProgressSeconds, maxLanePayments } from "../../model/job-kinds.ts"
import { parseDecimal } from "../../money/decimal.ts"
import type { Clock } from "../../ports/clock.ts"
import type { BatchLogEvent, JobRun } from "../../ports/job-runner.ts"
import type { PaymentOutcome } from "../../ports/payment-provider.ts"
import type {
  PaymentBatchRecord,
  PaymentRecord,
  PaymentStatusChange,
  ProfileInUse,
  QuoteRecord,
  Repositories,
} from "../../ports/storage/index.ts"
import { startSlotIntervalMs, startsOnSlot } from "../../rules/batch-start-slots.ts"
import { type ActionCarriers, applyDecision, carryOutActions } from "./decision-executor.ts"
import { enqueueJob } from "./job-queue.ts"
import { appendEvents, paymentBatchEventPayload } from "./outbox.ts"
import { type MoveOptions, type PaymentOwner, paymentMoves, settlement } from "./payment-moves.ts"
import { findPayment, submitPayment } from "./provider-call.ts"
import { pricedQuote, providerMidRate } from "./quote-pricing.ts"
import type { ServicePorts } from "./service-ports.ts"
import { afterCommit, inTransaction, type Lifted } from "./transaction.ts"
import { workspaceClock } from "./workspace-clock.ts"

/*
 * The batch lane, in one module. A processing batch runs its payments in lanes, at most the
 * batch concurrency of them. A lane is one `execute_batch_payments` job carrying several
 * payments claimed together (started in one compare-and-set); it runs them one after another,
 * each submitted on a start slot of the batch (the batch's rate, shared by every process through
 * the batch row, such that no second holds more starts than the rate:
 * `rules/batch-start-slots.ts`), and settles them and counts them in the batch in one
 * transaction, which also claims the lane's next payments and ends the batch after its last. A
 * lane's reads, counts and job rows are shared by its payments; one provider call at a time per
 * lane. A payment settled outside its lane (the sweep of unknown outcomes) is counted here too.
 */

/** The batch machine's context: the batch's counts. */
export const batchCounts = (batch: PaymentBatchRecord) => ({
  total: batch.total_count,
  succeeded: batch.succeeded_count,
  failed: batch.failed_count,
})

/**
 * A batch's progress is logged each time this many more of its payments have settled (100, 200,
 * ...), as the lane that crossed the mark commits: at the default 20 a second, every 5 s or so.
 * Counted, not timed, so every process logs the same marks, each once.
 */
export const batchProgressEvery = 100

/** The log's event for `batch` as it now is. */
const batchLogEvent = (
  phase: BatchLogEvent["batch"],
  batch: PaymentBatchRecord,
  workspaceId: WorkspaceId,
): BatchLogEvent => {
  const ended = batch.completed_at !== null && batch.submitted_at !== null
  return {
    batch: phase,
    workspaceId,
    companyId: batch.company_id,
    batchId: batch.id,
    status: batch.status,
    total: batch.total_count,
    succeeded: batch.succeeded_count,
    failed: batch.failed_count,
    ...(ended ? { durationMs: Date.parse(batch.completed_at ?? "") - Date.parse(batch.submitted_at ?? "") } : {}),
  }
}

/** Tells the job log of `batch`, once the transaction of `tx` has committed. */
const logBatch = (
  ports: Pick<ServicePorts, "jobLog">,
  tx: Lifted<Repositories>,
  phase: BatchLogEvent["batch"],
  batch: PaymentBatchRecord,
  workspaceId: WorkspaceId,
) => {
  const log = ports.jobLog
  return log === undefined ? Effect.void : afterCommit(tx, () => log(batchLogEvent(phase, batch, workspaceId)))
}

/**
 * How a batch carries out its machine's jobs (its start, its expiry) and its one event (its
 * completion, stamped `now`).
 */
export const batchCarriers = (
  ports: Pick<ServicePorts, "ids" | "clock">,
  clock: Clock,
  tx: Lifted<Repositories>,
  batch: PaymentBatchRecord,
  workspaceId: WorkspaceId,
  now: Date = clock.now(),
): ActionCarriers => ({
  enqueue: (action) =>
    action.job === "process_batch" || action.job === "expire_batch"
      ? enqueueJob(ports, tx, {
          kind: action.job,
          payload: { batch_id: batch.id, workspace_id: workspaceId, company_id: batch.company_id },
          workspaceId,
          ...(action.delayMs === undefined ? {} : { delayMs: action.delayMs }),
        })
      : Effect.dieMessage(`the batch machine asked for ${JSON.stringify(action)}, which batches do not carry out`),
  emit: (action) =>
    action.event === "PaymentBatchCompletedEvent"
      ? appendEvents(
          ports,
          tx,
          [
            {
              workspaceId,
              companyId: batch.company_id,
              payload: paymentBatchEventPayload({ now, companyId: batch.company_id, batchId: batch.id }),
            },
          ],
          clock,
        )
      : Effect.dieMessage(`the batch machine asked for ${JSON.stringify(action)} on finishing`),
})

/**
 * Ends a processing batch whose payments all have an outcome, as the batch machine decides:
 * its terminal status and `completed_at` by compare-and-set, and its one
 * `PaymentBatchCompletedEvent`. A batch with payments still running is left as it is; of two
 * transactions that count the last payments, the compare-and-set lets one end it.
 */
const finishBatchIfDone = (
  ports: Pick<ServicePorts, "ids" | "clock" | "jobLog">,
  clock: Clock,
  tx: Lifted<Repositories>,
  workspaceId: WorkspaceId,
  batch: PaymentBatchRecord,
) =>
  Effect.gen(function* () {
    const decision = decide(batchMachine, batch, { type: "finish" }, batchCounts(batch))
    if (decision === undefined) return batch
    const now = clock.now()
    const at = now.toISOString()
    const ended = yield* applyDecision(batchMachine, decision, {
      compareAndSet: (status) =>
        tx.paymentBatches.compareAndSetStatus(batch.id, batch.status, status, { completed_at: at, updated_at: at }),
      carriers: (ended) => batchCarriers(ports, clock, tx, ended, workspaceId, now),
    })
    if (ended !== undefined) yield* logBatch(ports, tx, "completed", ended, workspaceId)
    return ended ?? batch
  })

/**
 * Claiming and counting lanes, and moving payments with their counts, for every service that
 * moves a batch's payments.
 */
export const batchLanes = (ports: ServicePorts) => {
  const { carriers, moveUncounted } = paymentMoves(ports)

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
        const own = carriers(clock, tx, company, row)
        // The executions the machine queues for the lane's payments are the lane's one job.
        yield* carryOutActions(paymentMachine, decisions.get(row.id)?.actions ?? [], {
          ...own,
          enqueue: (action) =>
            action.job === "execute_batch_payments" ? Effect.sync(() => void lane.push(row.id)) : own.enqueue(action),
        })
      }
      if (lane.length > 0) {
        yield* enqueueJob(ports, tx, {
          kind: "execute_batch_payments",
          payload: { batch_id: batchId, workspace_id: company.workspace_id, payment_ids: lane, company_id: company.id },
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

  /**
   * Moves a stored payment by one machine event with a compare-and-set and carries out what the
   * machine says the move implies, counting it in its batch; undefined when the machine refuses
   * or another writer won.
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

  return { claimLane, move, moveUncounted, startLanes }
}

/** How a lane's payment ended: the provider's outcome, or a reason of ours to fail it unsubmitted. */
type LaneOutcome =
  | { readonly row: PaymentRecord; readonly outcome: PaymentOutcome }
  | { readonly row: PaymentRecord; readonly failure: string }

/** What a lane's job read of its payments before running them. */
interface Lane {
  readonly batchId: PaymentBatchId
  readonly company: PaymentOwner
  readonly clock: Clock
  readonly payments: ReadonlyArray<PaymentRecord>
  readonly quotes: ReadonlyArray<QuoteRecord>
  readonly profiles: ReadonlyArray<ProfileInUse>
  /** A later run of the lane's job: its payments may have reached the provider already. */
  readonly resumed: boolean
}

const unique = <A>(values: ReadonlyArray<A>) => [...new Set(values)]

/** The jobs of a batch's lanes: starting its first lanes, and running one. */
export const makeBatchLaneJobs = (ports: ServicePorts) => {
  const { claimLane, moveUncounted, startLanes } = batchLanes(ports)

  /**
   * A payment's expired quote priced again at today's rate and fee, with the same instructed
   * amount, currency and fee strategy (DECISIONS, Quote use): a new quote, which the payment
   * points to from now on. Undefined when the payment moved meanwhile; a reason to fail it when
   * it cannot be priced.
   */
  const refreshedQuote = (
    lane: Lane,
    row: PaymentRecord,
    expired: QuoteRecord,
  ): Effect.Effect<QuoteRecord | { readonly failure: string } | undefined, ProviderFailure> =>
    Effect.gen(function* () {
      const from = lane.profiles.find((use) => use.profile.id === row.from_profile_id)?.profile
      const to = lane.profiles.find((use) => use.profile.id === row.to_profile_id)?.profile
      const amount = parseDecimal(expired.instructed_amount)
      if (from === undefined || to === undefined || amount === undefined) {
        return { failure: "The quote expired and its payment profiles can no longer be used" }
      }
      const mid = yield* providerMidRate(ports, from.currency, to.currency)
      const request = {
        companyId: row.company_id,
        from,
        to,
        amount,
        currency: expired.instructed_currency,
        strategy: expired.fee_strategy,
      }
      const priced = yield* Effect.either(pricedQuote(ports, request, mid, lane.clock))
      if (Either.isLeft(priced)) {
        return { failure: `The quote expired and could not be priced again: ${priced.left.message}` }
      }
      const fresh = priced.right
      return yield* inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          yield* tx.quotes.insert(fresh)
          const moved = yield* tx.payments.replaceQuote(row.id, expired.id, fresh.id, fresh.created_at)
          return moved === undefined ? undefined : fresh
        }),
      )
    })

  /**
   * Waits for a start slot of the batch and returns once the payment may be submitted on it
   * (`rules/batch-start-slots.ts`), unless the rate is lifted. Woken too late for its slot (a
   * busy event loop), it leaves that slot unused and takes the next free one.
   */
  const awaitSlot = (lane: Lane) =>
    Effect.gen(function* () {
      const rate = ports.batchExecution.perSecond
      if (!Number.isFinite(rate)) return
      const interval = startSlotIntervalMs(rate)
      for (;;) {
        const now = lane.clock.now()
        const slot = Date.parse(
          yield* inTransaction(ports.storage, (tx) =>
            tx.paymentBatches.takeSlot(lane.batchId, now.toISOString(), interval),
          ),
        )
        const wait = slot - lane.clock.now().getTime()
        if (wait > 0) yield* Effect.sleep(wait)
        if (startsOnSlot(slot, lane.clock.now().getTime(), rate)) return
      }
    })

  /**
   * Runs one payment of the lane: resumed, asked of the provider first (one it knows is not
   * submitted again); else after its start slot, with its quote priced again if it expired,
   * submitted. Undefined when the payment moved meanwhile.
   */
  const runPayment = (lane: Lane, row: PaymentRecord): Effect.Effect<LaneOutcome | undefined, ProviderFailure> =>
    Effect.gen(function* () {
      const known = lane.resumed ? yield* findPayment(ports, row.id) : undefined
      if (known !== undefined) return { row, outcome: known }
      const quote = lane.quotes.find((q) => q.id === row.quote_id)
      if (quote === undefined) return { row, failure: "The payment's quote could not be found" }
      let current: QuoteRecord = quote
      // The slot is awaited last, right before the provider call, so that the start is on it; a
      // quote that expired meanwhile is priced again, and then a later slot awaited.
      for (;;) {
        const expired = current.expires_at <= lane.clock.now().toISOString()
        const fresh = expired ? yield* refreshedQuote(lane, row, current) : current
        if (fresh === undefined) return undefined
        if ("failure" in fresh) return { row, failure: fresh.failure }
        current = fresh
        yield* awaitSlot(lane)
        if (current.expires_at > lane.clock.now().toISOString()) break
      }
      return { row, outcome: yield* submitPayment(ports, row, current, lane.profiles) }
    })

  return {
    /**
     * Starts a processing batch (the process_batch job): claims its first lanes, as many as the
     * batch concurrency, each with its job queued. Run again (a crash after it committed), it
     * starts nothing: the batch has payments running or finished by then.
     */
    start: (batchId: PaymentBatchId, workspaceId: WorkspaceId): Effect.Effect<number> =>
      inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const batch = yield* tx.paymentBatches.findById(batchId)
          if (batch === undefined || batch.status !== "processing") return 0
          if (batch.succeeded_count + batch.failed_count > 0) return 0
          const [running] = yield* tx.payments.listInBatch(batchId, 1, "processing")
          if (running !== undefined) return 0
          const clock = yield* workspaceClock(ports, tx, workspaceId)
          const company = { id: batch.company_id, workspace_id: workspaceId }
          const started = yield* startLanes(clock, tx, company, batch, ports.batchExecution.concurrency)
          yield* logBatch(ports, tx, "started", batch, workspaceId)
          return started
        }),
      ),

    /**
     * Runs a lane (the execute_batch_payments job): its payments still processing, one after
     * another, then settles them, counts them in the batch, claims the lane's next payments and
     * ends the batch after its last one, in one transaction. A provider that fails a call stops
     * the lane: what it ran so far is settled, and the job's next run goes on from there. That
     * run (and any after a crash) takes the lane's payments over (their last update written, so
     * the sweep of unknown outcomes leaves them to it) and asks the provider about each before
     * submitting it: none reaches the provider twice. Resolves with how many payments it settled.
     */
    runLane: (
      batchId: PaymentBatchId,
      workspaceId: WorkspaceId,
      paymentIds: ReadonlyArray<PaymentId>,
      run: JobRun = { attempt: 1 },
    ): Effect.Effect<number, ProviderFailure> =>
      Effect.gen(function* () {
        const resumed = run.attempt > 1
        const lane = yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const rows = (yield* tx.payments.findInBatch(batchId, paymentIds)).filter((r) => r.status === "processing")
            const first = rows[0]
            if (first === undefined) return undefined
            const clock = yield* workspaceClock(ports, tx, workspaceId)
            const payments = resumed
              ? yield* tx.payments.compareAndSetStatuses(
                  rows.map((row) => row.id),
                  "processing",
                  "processing",
                  { updated_at: clock.now().toISOString() },
                )
              : rows
            const companyId = first.company_id
            const quotes = yield* tx.quotes.findMany(companyId, unique(payments.map((row) => row.quote_id)))
            const profiles = yield* tx.paymentProfiles.findInUse(
              companyId,
              unique(payments.flatMap((row) => [row.from_profile_id, row.to_profile_id])),
            )
            const company = { id: companyId, workspace_id: workspaceId }
            return { batchId, company, clock, payments, quotes, profiles, resumed } satisfies Lane
          }),
        )
        if (lane === undefined) return 0
        const outcomes: LaneOutcome[] = []
        const ran = yield* Effect.either(
          Effect.forEach(
            lane.payments,
            (row) => runPayment(lane, row).pipe(Effect.tap((outcome) => void (outcome && outcomes.push(outcome)))),
            { discard: true },
          ),
        )
        const settled = outcomes.length === 0 ? 0 : yield* settleLane(lane, outcomes, Either.isRight(ran))
        if (Either.isLeft(ran)) return yield* Effect.fail(ran.left)
        return settled
      }),
  }

  /**
   * Settles a lane's payments and counts them in their batch in one transaction; when the lane
   * ran to its end, claims its next payments; ends the batch when these were its last.
   */
  function settleLane(lane: Lane, outcomes: ReadonlyArray<LaneOutcome>, ranToEnd: boolean) {
    return inTransaction(ports.storage, (tx) =>
      Effect.gen(function* () {
        const clock = yield* workspaceClock(ports, tx, lane.company.workspace_id)
        const counts = { succeeded: 0, failed: 0 }
        for (const done of outcomes) {
          const { event, change } =
            "failure" in done
              ? {
                  event: { type: "fail" } as const,
                  change: { failure_reason: done.failure, updated_at: clock.now().toISOString() },
                }
              : settlement(clock, done.outcome)
          const moved = yield* moveUncounted(clock, tx, lane.company, done.row, event, change)
          if (moved === undefined) continue
          counts.succeeded += moved.counted.succeeded
          counts.failed += moved.counted.failed
        }
        if (counts.succeeded + counts.failed === 0) return 0
        const batch = yield* tx.paymentBatches.recordOutcomes(lane.batchId, counts, clock.now().toISOString())
        if (batch === undefined) return yield* Effect.dieMessage(`batch ${lane.batchId} is not processing its lane`)
        if (ranToEnd) yield* claimLane(clock, tx, lane.company, batch)
        const now = yield* finishBatchIfDone(ports, clock, tx, lane.company.workspace_id, batch)
        const settled = batch.succeeded_count + batch.failed_count
        const before = settled - counts.succeeded - counts.failed
        if (
          now.status === "processing" &&
          Math.floor(settled / batchProgressEvery) > Math.floor(before / batchProgressEvery)
        )
          yield* logBatch(ports, tx, "progress", batch, lane.company.workspace_id)
        return counts.succeeded + counts.failed
      }),
    )
  }
}
