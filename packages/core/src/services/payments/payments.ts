import { Effect, Either } from "effect"
import { type Forbidden, Invalid, NotFound, type ProviderFailure } from "../../errors.ts"
import { maxBatchPayments } from "../../machines/batch-machine.ts"
import { paymentMachine } from "../../machines/payment-machine.ts"
import { begin } from "../../machines/stored-machine.ts"
import type { CompanyId, PaymentBatchId, PaymentId, WorkspaceId } from "../../model/ids.ts"
import { isoTime } from "../../model/iso-time.ts"
import {
  type PaymentCreateBody,
  PaymentFields,
  type PaymentInstruction,
  PaymentListQuery,
  toPayment,
} from "../../model/payment.ts"
import { batchMessages } from "../../model/payment-batch.ts"
import { type PaymentCreated, unknownOutcomeAfterMs, unknownOutcomesPerRun } from "../../model/types/payment.ts"
import type { Clock } from "../../ports/clock.ts"
import type { PaymentOutcome } from "../../ports/payment-provider.ts"
import type {
  CompanyWithQuote,
  PaymentFilter,
  PaymentRecord,
  PaymentStatusValue,
  Repositories,
} from "../../ports/storage/index.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import { checkQuoteProfiles } from "../../rules/quote-profiles.ts"
import type { Actor } from "../steps/actor.ts"
import { batchLanes } from "../steps/batch-lanes.ts"
import { carryOutActions } from "../steps/decision-executor.ts"
import { decodeQuery, decodeWrapped } from "../steps/decode-input.ts"
import { companyNotFound } from "../steps/lookups.ts"
import { logPayment, type MoveOptions, type PaymentOwner, paymentMoves, settlement } from "../steps/payment-moves.ts"
import { findPayment, submitPayment } from "../steps/provider-call.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inTransaction, type Lifted } from "../steps/transaction.ts"
import { inCompany, readInCompany, writeAccess } from "../steps/use-case.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

const paymentNotFound = () =>
  new NotFound({ field: "id", message: "Payment Instruction not found or not accessible in this workspace" })

const sameRequest = (existing: PaymentRecord, input: PaymentFields) =>
  existing.quote_id === input.payment_quote_id &&
  existing.reason === input.reason &&
  existing.credit_note === (input.credit_note ?? null) &&
  existing.debit_note === (input.debit_note ?? null) &&
  existing.payment_batch_id === (input.payment_batch_id ?? null)

/** Use cases of payment instructions. */
export const makePayments = (ports: ServicePorts) => {
  const { carriers, withProfiles } = paymentMoves(ports)
  const { move } = batchLanes(ports)

  const idempotencyOutcome = (tx: Lifted<Repositories>, existing: PaymentRecord, input: PaymentFields) =>
    sameRequest(existing, input)
      ? withProfiles(tx, [existing], false).pipe(Effect.map(([payment]) => ({ payment: payment!, created: false })))
      : Effect.fail(Invalid.rule("idempotency_key", "has already been taken"))

  /**
   * The batch a new payment asks to be held in, if it can take one more: building and holding
   * fewer than 500. Read only: the count itself is taken after the insert ({@link holdInBatch}).
   */
  const batchToJoin = (tx: Lifted<Repositories>, company: PaymentOwner, batchId: PaymentBatchId) =>
    Effect.gen(function* () {
      const batch = yield* tx.paymentBatches.find(company.id, batchId)
      if (batch === undefined)
        return yield* Effect.fail(Invalid.rule("payment_batch_id", batchMessages.unknownForPayment))
      if (batch.status !== "building" || batch.total_count >= maxBatchPayments) {
        return yield* Effect.fail(Invalid.rule("payment_batch_id", batchMessages.full))
      }
      return batch
    })

  /**
   * A new pending payment of the quote, with its execution queued (outside a batch) or held (in
   * one); any reason it cannot be is an `Invalid`, found before anything is written.
   */
  const newPayment = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    input: PaymentFields,
    key: string,
    found: Pick<CompanyWithQuote, "quote" | "profiles">,
  ): Effect.Effect<PaymentCreated, Invalid> =>
    Effect.gen(function* () {
      const batchId = input.payment_batch_id ?? null
      if (batchId !== null) yield* batchToJoin(tx, company, batchId)
      const { quote } = found
      if (!quote) return yield* Effect.fail(Invalid.rule("payment_quote_id", "Quote not found"))
      const now = isoTime(clock.now())
      // A batch refreshes an expired quote when it runs (DECISIONS, Quote use).
      if (batchId === null && quote.expires_at <= now) {
        return yield* Effect.fail(Invalid.rule("payment_quote_id", "Quote has expired"))
      }
      const { from, to } = yield* checkQuoteProfiles(found.profiles, quote.from_profile_id, quote.to_profile_id).pipe(
        Effect.mapError(
          (e) => new Invalid({ kind: "invalid", errors: e.errors.map((x) => ({ ...x, field: "payment_quote_id" })) }),
        ),
      )
      const start = begin(paymentMachine, { batched: batchId !== null })
      const row: PaymentRecord = {
        id: ports.ids.next("pay"),
        company_id: company.id,
        quote_id: quote.id,
        idempotency_key: key,
        reason: input.reason,
        credit_note: input.credit_note ?? null,
        debit_note: input.debit_note ?? null,
        payment_batch_id: batchId,
        status: start.status,
        machine_version: paymentMachine.version,
        instructed_amount: quote.instructed_amount,
        instructed_currency: quote.instructed_currency,
        from_profile_id: from.id,
        to_profile_id: to.id,
        provider_payment_id: null,
        failure_reason: null,
        created_at: now,
        updated_at: now,
      }
      // A conflict is the quote's payment or the key's: the caller's key lookup tells which.
      if ((yield* tx.payments.insertIfNew(row)) === "conflict") {
        return yield* Effect.fail(Invalid.rule("payment_quote_id", "Quote has already been used"))
      }
      yield* carryOutActions(paymentMachine, start.actions, carriers(clock, tx, company, row))
      yield* logPayment(ports, tx, company, row, true)
      return { payment: toPayment(row, [from, to], { withIdempotencyKey: false }), created: true }
    })

  /**
   * Counts a new payment in its batch. After the insert, so that a refusal found earlier writes
   * nothing; a batch that filled up or started since {@link batchToJoin} read it fails the
   * whole transaction, the payment with it.
   */
  const holdInBatch = (clock: Clock, tx: Lifted<Repositories>, payment: PaymentInstruction, batchId: PaymentBatchId) =>
    tx.paymentBatches
      .hold(batchId, maxBatchPayments, clock.now().toISOString())
      .pipe(
        Effect.flatMap((held) =>
          held === undefined
            ? Effect.fail(Invalid.rule("payment_batch_id", batchMessages.full))
            : Effect.succeed(payment),
        ),
      )

  return {
    /**
     * Creates a payment from a quote; a payment outside a batch is executed in the background
     * right after. The business `idempotency_key` is unique per company, forever.
     */
    create: (
      actor: Actor,
      companyId: CompanyId,
      body: PaymentCreateBody,
    ): Effect.Effect<PaymentCreated, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const input = yield* decodeWrapped(
          "payment_instruction",
          PaymentFields,
          body,
          "Payment instruction is required",
        )
        const key = input.idempotency_key
        if (key === undefined) return yield* Effect.fail(Invalid.rule("idempotency_key", "Idempotency key is required"))
        // The company, the quote and its profiles are read in one statement; a company the actor
        // cannot see, or a deleted one, is `not_found` on `company_id` before anything else.
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const found = yield* tx.companies.findWithQuoteInUse(actor.workspaceId, companyId, input.payment_quote_id)
            if (found === undefined || found.company.deleted_at !== null) {
              return yield* Effect.fail(companyNotFound("company_id"))
            }
            const { company } = found
            const clock = yield* workspaceClock(ports, tx, actor.workspaceId)
            // The business key is looked up only when the payment cannot be made as asked: a
            // repeated create finds its quote used (or expired since), and is answered from the
            // key, so it answers the same as when the key is looked up first, one read less.
            const outcome = yield* newPayment(clock, tx, company, input, key, found).pipe(
              Effect.catchTag("Invalid", (refusal) =>
                tx.payments
                  .findByIdempotencyKey(company.id, key)
                  .pipe(
                    Effect.flatMap((existing) =>
                      existing ? idempotencyOutcome(tx, existing, input) : Effect.fail(refusal),
                    ),
                  ),
              ),
            )
            const batchId = input.payment_batch_id ?? null
            if (outcome.created && batchId !== null) yield* holdInBatch(clock, tx, outcome.payment, batchId)
            return outcome
          }),
        )
      }).pipe(writeAccess(actor)),

    get: (actor: Actor, companyId: CompanyId, id: PaymentId): Effect.Effect<PaymentInstruction, NotFound> =>
      readInCompany(ports, actor, companyId, ({ tx, company }) =>
        Effect.gen(function* () {
          const row = yield* tx.payments.find(company.id, id)
          if (!row) return yield* Effect.fail(paymentNotFound())
          return (yield* withProfiles(tx, [row]))[0]!
        }),
      ),

    /** Payments of the company, oldest first, filtered by `status` and `payment_batch_id`. */
    list: (
      actor: Actor,
      companyId: CompanyId,
      query: PageQuery & { readonly status?: unknown; readonly payment_batch_id?: unknown } = {},
    ) =>
      Effect.gen(function* () {
        const request = yield* parsePageRequest(query, pagePolicies.payments)
        const filter: PaymentFilter = yield* decodeQuery(PaymentListQuery, query)
        return yield* readInCompany(ports, actor, companyId, ({ tx, company }) =>
          Effect.gen(function* () {
            const slice = yield* tx.payments.list(company.id, filter, {
              offset: pageOffset(request),
              limit: request.perPage,
            })
            const data = slice.rows.length === 0 ? [] : yield* withProfiles(tx, slice.rows)
            return toPage(data, slice.total, request)
          }),
        )
      }) as Effect.Effect<Page<PaymentInstruction>, Invalid | NotFound>,

    /** Cancels a pending payment; any other status is `invalid`, naming it. */
    cancel: (
      actor: Actor,
      companyId: CompanyId,
      id: PaymentId,
    ): Effect.Effect<PaymentInstruction, Invalid | Forbidden | NotFound> =>
      inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
        Effect.gen(function* () {
          const row = yield* tx.payments.find(company.id, id)
          if (!row) return yield* Effect.fail(paymentNotFound())
          const clock = yield* readClock
          const at = clock.now().toISOString()
          const batchId = row.payment_batch_id
          // A held payment leaves its batch (DECISIONS, Cancel), only while the batch is building.
          if (batchId !== null && row.status === "pending") {
            const released = yield* tx.paymentBatches.release(batchId, at)
            if (released === undefined) {
              return yield* Effect.fail(Invalid.rule("status", batchMessages.paymentInRunningBatch))
            }
          }
          const leave = batchId === null ? {} : { payment_batch_id: null }
          const cancelled = yield* move(clock, tx, company, row, { type: "cancel" }, { ...leave, updated_at: at })
          if (!cancelled) {
            const current = (yield* tx.payments.find(company.id, id)) ?? row
            return yield* Effect.fail(Invalid.rule("status", `Payment cannot be cancelled in status ${current.status}`))
          }
          return (yield* withProfiles(tx, [cancelled]))[0]!
        }),
      ).pipe(writeAccess(actor)),
  }
}

export type Payments = ReturnType<typeof makePayments>

/** The background jobs of payments: running one outside a batch, and settling those whose outcome was lost. */
export const makePaymentJobs = (ports: ServicePorts) => {
  const { move } = batchLanes(ports)

  /**
   * Completes or fails a processing payment as the provider's outcome says; without an outcome
   * (the provider never received it) fails it as not received. Undefined when another writer won.
   * Its event shows `options.profiles` when given (read when the payment was claimed), else the
   * profiles as read now.
   */
  const settle = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: PaymentOwner,
    row: PaymentRecord,
    outcome: PaymentOutcome | undefined,
    options: Pick<MoveOptions, "lastUpdate" | "profiles"> = {},
  ) => {
    const { event, change } = settlement(clock, outcome)
    return move(clock, tx, company, row, event, change, options)
  }

  return {
    /**
     * Runs a payment outside a batch through the provider (the execute_payment job): pending ->
     * processing, the provider call keyed by the payment id, then completed or failed. Safe to
     * run again after a crash or a failed call at any point: a payment already past processing
     * is left alone, and one resumed (still processing when a later run of its job starts) is
     * taken over (its last update written, so the sweep of unknown outcomes leaves it to this run)
     * and asked of the provider first: one the provider knows is settled from its answer without a
     * second submission, and only one it never received is submitted again. A batch payment is
     * left to its batch's lanes.
     */
    execute: (
      paymentId: PaymentId,
      workspaceId: WorkspaceId,
    ): Effect.Effect<PaymentStatusValue | "missing", ProviderFailure> =>
      Effect.gen(function* () {
        const companyOf = (row: PaymentRecord) => ({ id: row.company_id, workspace_id: workspaceId })
        const claimed = yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const found = yield* tx.payments.findForExecution(paymentId)
            if (!found) return undefined
            const { payment: row, quote, profiles } = found
            if (row.payment_batch_id !== null) return { row }
            const clock = yield* workspaceClock(ports, tx, workspaceId)
            const updated_at = clock.now().toISOString()
            const resumed = row.status === "processing"
            const debit = profiles.some(
              (use) => use.profile.id === row.from_profile_id && use.profile.usage_type === "debit",
            )
            // One still processing when a later run starts is taken over by that run: not a
            // transition, only its last update is written. Its events show the profiles read with it.
            const shown = profiles.map((use) => use.profile)
            const current =
              row.status === "pending"
                ? yield* move(
                    clock,
                    tx,
                    companyOf(row),
                    row,
                    { type: "start" },
                    { updated_at },
                    { debit, profiles: shown },
                  )
                : resumed
                  ? yield* tx.payments.compareAndSetStatus(row.id, "processing", "processing", { updated_at })
                  : row
            if (!current || current.status !== "processing") return { row: current ?? row }
            return { row: current, quote, profiles, resumed }
          }),
        )
        if (!claimed) return "missing" as const
        const { row, quote } = claimed
        if (row.status !== "processing" || row.payment_batch_id !== null || quote === undefined) return row.status
        // An earlier run may have reached the provider and lost its answer: ask before submitting.
        const known = claimed.resumed ? yield* findPayment(ports, row.id) : undefined
        const outcome = known ?? (yield* submitPayment(ports, row, quote, claimed.profiles))
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const clock = yield* workspaceClock(ports, tx, workspaceId)
            // The profiles read when the payment was claimed, moments ago: its completion's event
            // shows them without a second read (executing a payment on Postgres in 11 round trips).
            const profiles = claimed.profiles?.map((use) => use.profile)
            const done = yield* settle(
              clock,
              tx,
              companyOf(row),
              row,
              outcome,
              profiles === undefined ? {} : { profiles },
            )
            if (!done) return ((yield* tx.payments.findById(row.id)) ?? row).status
            return done.status
          }),
        )
      }),

    /**
     * Settles the payments whose provider outcome the engine never learnt (the
     * settle_unknown_payments job, every minute): those of any workspace still `processing`
     * {@link unknownOutcomeAfterMs} after their last update by the engine's clock, at most
     * {@link unknownOutcomesPerRun}, least recently updated first. Each is asked of the provider
     * by its id: one it knows completes or fails as it says; one it never received fails as
     * {@link notReceivedByProvider} (no money moved). A payment written since it was listed (a run
     * of its job took it over) is left to that run. One the provider cannot be asked about stays
     * `processing` for a later run, and this run fails with the provider failure once it has
     * settled the others. Resolves with how many payments it settled.
     */
    settleUnknown: (): Effect.Effect<number, ProviderFailure> =>
      Effect.gen(function* () {
        const before = new Date(ports.clock.now().getTime() - unknownOutcomeAfterMs).toISOString()
        const stuck = yield* inTransaction(ports.storage, (tx) => tx.payments.listStuck(before, unknownOutcomesPerRun))
        let settled = 0
        let unanswered: ProviderFailure | undefined
        for (const payment of stuck) {
          const answer = yield* Effect.either(findPayment(ports, payment.id))
          if (Either.isLeft(answer)) {
            unanswered ??= answer.left
            continue
          }
          const company = { id: payment.company_id, workspace_id: payment.workspace_id }
          const done = yield* inTransaction(ports.storage, (tx) =>
            Effect.gen(function* () {
              const clock = yield* workspaceClock(ports, tx, payment.workspace_id)
              return yield* settle(clock, tx, company, payment, answer.right, { lastUpdate: payment.updated_at })
            }),
          )
          if (done) settled += 1
        }
        if (unanswered) return yield* Effect.fail(unanswered)
        return settled
      }),
  }
}
