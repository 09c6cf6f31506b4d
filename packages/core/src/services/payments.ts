import { Effect, Either } from "effect"
import { type Forbidden, Invalid, NotFound, type ProviderFailure } from "../errors.ts"
import { type PaymentEvent, paymentMachine } from "../machines/payment-machine.ts"
import { begin, decide, type MachineAction } from "../machines/stored-machine.ts"
import { type WebhookEventName, type WebhookEventNameOf, webhookEventCatalogue } from "../model/events.ts"
import type { CompanyId, PaymentId, WorkspaceId } from "../model/ids.ts"
import { PaymentFields, type PaymentInstruction, PaymentListQuery, toPayment } from "../model/payment.ts"
import type { Clock } from "../ports/clock.ts"
import type { PaymentOutcome } from "../ports/payment-provider.ts"
import type {
  CompanyRecord,
  PaymentFilter,
  PaymentRecord,
  PaymentStatusValue,
  Repositories,
} from "../ports/storage/index.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../rules/paging.ts"
import { checkQuoteProfiles } from "../rules/quote-profiles.ts"
import { type Actor, requireWrite } from "./actor.ts"
import { decodeQuery, decodeWrapped } from "./decode-body.ts"
import { appendEvents, paymentEventPayload } from "./events.ts"
import { enqueueJob } from "./jobs-queue.ts"
import type { ServicePorts } from "./ports.ts"
import { providerCall } from "./provider-call.ts"
import { findLiveCompany } from "./scope.ts"
import { inTransaction, type Lifted } from "./transaction.ts"
import { workspaceClock } from "./workspace-clock.ts"

const isPaymentEvent = (event: WebhookEventName): event is WebhookEventNameOf<"PaymentEvents"> =>
  Object.hasOwn(webhookEventCatalogue.PaymentEvents, event)

const paymentNotFound = () =>
  new NotFound({ field: "id", message: "Payment Instruction not found or not accessible in this workspace" })

/**
 * How long a payment may stay `processing` after its last update, by the engine's clock, before
 * the engine asks the provider how it ended: well past the last retry of its job and the provider
 * call that retry makes, so no run of the job is still on its way to the provider.
 */
export const unknownOutcomeAfterMs = 10 * 60 * 1000

/** The most payments one run of `settle_unknown_payments` settles: the rest wait a minute. */
export const unknownOutcomesPerRun = 100

/** The `failure_reason` of a payment the provider says it never received. */
export const notReceivedByProvider = "Payment was not received by the provider"

/** Payments with their profiles, in one query for the profiles. */
const withProfiles = (tx: Lifted<Repositories>, rows: ReadonlyArray<PaymentRecord>, withIdempotencyKey = true) =>
  Effect.gen(function* () {
    const ids = [...new Set(rows.flatMap((r) => [r.from_profile_id, r.to_profile_id]))]
    const found = rows.length === 0 ? [] : yield* tx.paymentProfiles.findMany(rows[0]!.company_id, ids)
    return rows.map((row) => toPayment(row, found, { withIdempotencyKey }))
  })

const sameRequest = (existing: PaymentRecord, input: PaymentFields) =>
  existing.quote_id === input.payment_quote_id &&
  existing.reason === input.reason &&
  existing.credit_note === (input.credit_note ?? null) &&
  existing.debit_note === (input.debit_note ?? null) &&
  existing.payment_batch_id === (input.payment_batch_id ?? null)

/** The outbox event `event` of a payment, with the payment as it now is. */
const paymentEvent = (
  ports: ServicePorts,
  clock: Clock,
  tx: Lifted<Repositories>,
  company: Pick<CompanyRecord, "id" | "workspace_id">,
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

/** The result of a create: a new payment (201) or the one an earlier call with the key made (200). */
export interface PaymentCreated {
  readonly payment: PaymentInstruction
  readonly created: boolean
}

/** Use cases of payment instructions. */
export const makePayments = (ports: ServicePorts) => {
  /** Carries out what the payment machine decided, in the caller's transaction, on the workspace's clock. */
  const carryOut = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: Pick<CompanyRecord, "id" | "workspace_id">,
    row: PaymentRecord,
    actions: ReadonlyArray<MachineAction>,
  ) =>
    Effect.forEach(
      actions,
      (action) => {
        switch (action.type) {
          case "emit":
            return paymentEvent(ports, clock, tx, company, row, action.event)
          case "enqueue":
            if (action.job !== "execute_payment") break
            return enqueueJob(ports, tx, {
              kind: action.job,
              payload: { payment_id: row.id, workspace_id: company.workspace_id },
              workspaceId: company.workspace_id,
            })
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
    company: Pick<CompanyRecord, "id" | "workspace_id">,
    row: PaymentRecord,
    event: PaymentEvent,
    change: { provider_payment_id?: string; failure_reason?: string; updated_at: string },
    lastUpdate?: string,
  ) =>
    Effect.gen(function* () {
      const decision = decide(paymentMachine, row, event, { batched: row.payment_batch_id !== null })
      if (decision === undefined) return undefined
      const moved = yield* tx.payments.compareAndSetStatus(row.id, row.status, decision.status, change, lastUpdate)
      if (moved === undefined) return undefined
      yield* carryOut(clock, tx, company, moved, decision.actions)
      return moved
    })

  /**
   * Completes or fails a processing payment as the provider's outcome says; without an outcome
   * (the provider never received it) fails it as not received. Undefined when another writer won.
   */
  const settle = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: Pick<CompanyRecord, "id" | "workspace_id">,
    row: PaymentRecord,
    outcome: PaymentOutcome | undefined,
    lastUpdate?: string,
  ) => {
    const updated_at = clock.now().toISOString()
    const change =
      outcome === undefined
        ? { failure_reason: notReceivedByProvider, updated_at }
        : {
            provider_payment_id: outcome.providerPaymentId,
            ...(outcome.status === "failed" ? { failure_reason: outcome.reason } : {}),
            updated_at,
          }
    const event = { type: outcome?.status === "completed" ? "complete" : "fail" } as const
    return move(clock, tx, company, row, event, change, lastUpdate)
  }

  const idempotencyOutcome = (tx: Lifted<Repositories>, existing: PaymentRecord, input: PaymentFields) =>
    sameRequest(existing, input)
      ? withProfiles(tx, [existing], false).pipe(Effect.map(([payment]) => ({ payment: payment!, created: false })))
      : Effect.fail(Invalid.rule("idempotency_key", "has already been taken"))

  /** A new pending payment of the quote, with its execution queued; any reason it cannot be is an `Invalid`. */
  const newPayment = (
    clock: Clock,
    tx: Lifted<Repositories>,
    company: Pick<CompanyRecord, "id" | "workspace_id">,
    input: PaymentFields,
    key: string,
  ): Effect.Effect<PaymentCreated, Invalid> =>
    Effect.gen(function* () {
      if (input.payment_batch_id != null) {
        return yield* Effect.fail(Invalid.rule("payment_batch_id", "Payment batch not found"))
      }
      const quote = yield* tx.quotes.find(company.id, input.payment_quote_id)
      if (!quote) return yield* Effect.fail(Invalid.rule("payment_quote_id", "Quote not found"))
      const now = clock.now().toISOString()
      if (quote.expires_at <= now) return yield* Effect.fail(Invalid.rule("payment_quote_id", "Quote has expired"))
      const { from, to } = yield* checkQuoteProfiles(tx, company.id, quote.from_profile_id, quote.to_profile_id).pipe(
        Effect.mapError(
          (e) => new Invalid({ kind: "invalid", errors: e.errors.map((x) => ({ ...x, field: "payment_quote_id" })) }),
        ),
      )
      const start = begin(paymentMachine, { batched: false })
      const row: PaymentRecord = {
        id: ports.ids.next("pay"),
        company_id: company.id,
        quote_id: quote.id,
        idempotency_key: key,
        reason: input.reason,
        credit_note: input.credit_note ?? null,
        debit_note: input.debit_note ?? null,
        payment_batch_id: null,
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
      yield* carryOut(clock, tx, company, row, start.actions)
      return { payment: toPayment(row, [from, to], { withIdempotencyKey: false }), created: true }
    })

  return {
    /**
     * Creates a payment from a quote; a payment outside a batch is executed in the background
     * right after. The business `idempotency_key` is unique per company, forever.
     */
    create: (
      actor: Actor,
      companyId: CompanyId,
      body: unknown,
    ): Effect.Effect<PaymentCreated, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        yield* requireWrite(actor)
        const input = yield* decodeWrapped(
          "payment_instruction",
          PaymentFields,
          body,
          "Payment instruction is required",
        )
        const key = input.idempotency_key
        if (key === undefined) return yield* Effect.fail(Invalid.rule("idempotency_key", "Idempotency key is required"))
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const company = yield* findLiveCompany(tx, actor, companyId)
            const clock = yield* workspaceClock(ports, tx, actor.workspaceId)
            // The business key is looked up only when the payment cannot be made as asked: a
            // repeated create finds its quote used (or expired since), and is answered from the
            // key, so it answers the same as when the key is looked up first, one read less.
            return yield* newPayment(clock, tx, company, input, key).pipe(
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
          }),
        )
      }),

    get: (actor: Actor, companyId: CompanyId, id: PaymentId): Effect.Effect<PaymentInstruction, NotFound> =>
      inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const company = yield* findLiveCompany(tx, actor, companyId)
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
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const company = yield* findLiveCompany(tx, actor, companyId)
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
      Effect.gen(function* () {
        yield* requireWrite(actor)
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const company = yield* findLiveCompany(tx, actor, companyId)
            const row = yield* tx.payments.find(company.id, id)
            if (!row) return yield* Effect.fail(paymentNotFound())
            const clock = yield* workspaceClock(ports, tx, actor.workspaceId)
            const cancelled = yield* move(
              clock,
              tx,
              company,
              row,
              { type: "cancel" },
              { updated_at: clock.now().toISOString() },
            )
            if (!cancelled) {
              const current = (yield* tx.payments.find(company.id, id)) ?? row
              return yield* Effect.fail(
                Invalid.rule("status", `Payment cannot be cancelled in status ${current.status}`),
              )
            }
            return (yield* withProfiles(tx, [cancelled]))[0]!
          }),
        )
      }),

    /**
     * Runs a payment through the provider (the execute_payment job): pending -> processing, the
     * provider call keyed by the payment id, then completed or failed. Safe to run again after a
     * crash or a failed call at any point: a payment already past processing is left alone, and
     * one still processing is taken over (its last update written, so the sweep of unknown
     * outcomes leaves it to this run) and asked of the provider first: one the provider knows is
     * settled from its answer without a second submission, and only one it never received is
     * submitted again.
     */
    execute: (
      paymentId: PaymentId,
      workspaceId: WorkspaceId,
    ): Effect.Effect<PaymentStatusValue | "missing", ProviderFailure> =>
      Effect.gen(function* () {
        const companyOf = (row: PaymentRecord) => ({ id: row.company_id, workspace_id: workspaceId })
        const claimed = yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const row = yield* tx.payments.findById(paymentId)
            if (!row) return undefined
            const clock = yield* workspaceClock(ports, tx, workspaceId)
            const updated_at = clock.now().toISOString()
            // A payment still processing is taken over by this run, after a crash or a failed
            // call: not a transition, only its last update is written.
            const current =
              row.status === "pending"
                ? yield* move(clock, tx, companyOf(row), row, { type: "start" }, { updated_at })
                : row.status === "processing"
                  ? yield* tx.payments.compareAndSetStatus(row.id, "processing", "processing", { updated_at })
                  : row
            if (!current || current.status !== "processing") {
              return { row: current ?? row, quote: undefined, beneficiary: null, resumed: false }
            }
            const quote = yield* tx.quotes.find(row.company_id, row.quote_id)
            const [to] = yield* tx.paymentProfiles.findInUse(row.company_id, [row.to_profile_id])
            const resumed = row.status === "processing"
            return { row: current, quote, beneficiary: to?.provider_beneficiary_id ?? null, resumed }
          }),
        )
        if (!claimed) return "missing" as const
        const { row, quote } = claimed
        if (row.status !== "processing" || quote === undefined) return row.status
        // An earlier run may have reached the provider and lost its answer: ask before submitting.
        const known = claimed.resumed
          ? yield* providerCall("Payment provider failed to report the payment", () =>
              ports.paymentProvider.findPayment(row.id),
            )
          : undefined
        const outcome =
          known ??
          (yield* providerCall("Payment provider failed to execute the payment", () =>
            ports.paymentProvider.submitPayment({
              paymentId: row.id,
              sourceAmount: quote.source_amount,
              sourceCurrency: quote.source_currency,
              targetAmount: quote.target_amount,
              targetCurrency: quote.target_currency,
              instructedAmount: quote.instructed_amount,
              instructedCurrency: quote.instructed_currency,
              paymentMethod: quote.payment_method,
              providerBeneficiaryId: claimed.beneficiary,
            }),
          ))
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const clock = yield* workspaceClock(ports, tx, workspaceId)
            const done = yield* settle(clock, tx, companyOf(row), row, outcome)
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
          const answer = yield* Effect.either(
            providerCall("Payment provider failed to report the payment", () =>
              ports.paymentProvider.findPayment(payment.id),
            ),
          )
          if (Either.isLeft(answer)) {
            unanswered ??= answer.left
            continue
          }
          const company = { id: payment.company_id, workspace_id: payment.workspace_id }
          const done = yield* inTransaction(ports.storage, (tx) =>
            Effect.gen(function* () {
              const clock = yield* workspaceClock(ports, tx, payment.workspace_id)
              return yield* settle(clock, tx, company, payment, answer.right, payment.updated_at)
            }),
          )
          if (done) settled += 1
        }
        if (unanswered) return yield* Effect.fail(unanswered)
        return settled
      }),
  }
}

export type Payments = ReturnType<typeof makePayments>
