import { Effect, Either } from "effect"
import type { ProviderFailure } from "../../errors.ts"
import type { PaymentBatchId, PaymentId, WorkspaceId } from "../../model/ids.ts"
import { parseDecimal } from "../../money/decimal.ts"
import type { Clock } from "../../ports/clock.ts"
import type { JobRun } from "../../ports/job-runner.ts"
import type { PaymentOutcome } from "../../ports/payment-provider.ts"
import type { PaymentRecord, ProfileInUse, QuoteRecord } from "../../ports/storage/index.ts"
import { startSlotIntervalMs, startsOnSlot } from "../../rules/batch-start-slots.ts"
import { finishBatchIfDone } from "./batch-progress.ts"
import { type PaymentOwner, paymentMoves, settlement } from "./payment-moves.ts"
import { providerCall, submitPayment } from "./provider-call.ts"
import { pricedQuote, providerMidRate } from "./quote-pricing.ts"
import type { ServicePorts } from "./service-ports.ts"
import { inTransaction } from "./transaction.ts"
import { workspaceClock } from "./workspace-clock.ts"

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

/**
 * How a processing batch runs its payments: in lanes, at most the batch concurrency of them.
 * A lane is one `execute_batch_payments` job carrying several payments claimed together (started
 * in one compare-and-set); it runs them one after another, each submitted on a start slot of the
 * batch (the batch's rate, shared by every process through the batch row, such that no second
 * holds more starts than the rate: `rules/batch-start-slots.ts`), and settles them and
 * counts them in the batch in one transaction, which also claims the lane's next payments. A
 * lane's reads, counts and job rows are shared by its payments; one provider call at a time per lane.
 */
export const makeBatchLanes = (ports: ServicePorts) => {
  const { claimLane, moveUncounted, startLanes } = paymentMoves(ports)

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
      const known = lane.resumed
        ? yield* providerCall("Payment provider failed to report the payment", () =>
            ports.paymentProvider.findPayment(row.id),
          )
        : undefined
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
          return yield* startLanes(clock, tx, company, batch, ports.batchExecution.concurrency)
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
        yield* finishBatchIfDone(ports, clock, tx, lane.company.workspace_id, batch)
        return counts.succeeded + counts.failed
      }),
    )
  }
}
