import { Effect, Either } from "effect"
import { type Forbidden, Invalid, type NotFound, ProviderFailure } from "../../errors.ts"
import type { CompanyId } from "../../model/ids.ts"
import { type FeeStrategy, type Quote, QuoteFields, toQuote } from "../../model/quote.ts"
import { type Decimal, decimal, formatDecimal, parseDecimal } from "../../money/decimal.ts"
import type { Clock } from "../../ports/clock.ts"
import type { PaymentProfileRecord, QuoteRecord } from "../../ports/storage/index.ts"
import { expectedCompletionDate } from "../../rules/expected-completion.ts"
import { feeRuleFor } from "../../rules/fee-schedule.ts"
import { customerRate, formatAmount, parseInstructedAmount, priceQuote, rateScale } from "../../rules/quote-pricing.ts"
import { checkQuoteProfiles } from "../../rules/quote-profiles.ts"
import { type Actor, requireWrite } from "../steps/actor.ts"
import { decodeWrapped } from "../steps/decode-input.ts"
import { findLiveCompany } from "../steps/lookups.ts"
import { providerCall } from "../steps/provider-call.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inTransaction } from "../steps/transaction.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

/** How long a quote can be used. */
export const quoteLifetimeMs = 15 * 60 * 1000

const invalid = (field: string, message: string) => Effect.fail(Invalid.rule(field, message))

/** What a quote is priced from, once its profiles and amount are checked. */
export interface QuoteRequest {
  readonly companyId: CompanyId
  readonly from: PaymentProfileRecord
  readonly to: PaymentProfileRecord
  readonly amount: Decimal
  readonly currency: string
  readonly strategy: FeeStrategy
}

/**
 * The quote row for a request at the provider's mid rate (1 for the same currency), stamped by
 * `clock`: for new quotes, and for a batch payment's expired quote priced again when it runs.
 */
export const pricedQuote = (
  ports: Pick<ServicePorts, "ids" | "feeSchedule">,
  request: QuoteRequest,
  midRate: Decimal,
  clock: Clock,
): Effect.Effect<QuoteRecord, Invalid> => {
  const { from, to, amount, currency, strategy } = request
  const sameCurrency = from.currency === to.currency
  const rate = customerRate(midRate, ports.feeSchedule.fxMarginBasisPoints, sameCurrency)
  const price = priceQuote({
    amount,
    instructedCurrency: currency,
    sourceCurrency: from.currency,
    targetCurrency: to.currency,
    strategy,
    rate,
    fee: feeRuleFor(ports.feeSchedule, to.payment_method),
  })
  if (Either.isLeft(price)) return Effect.fail(price.left)
  const now = clock.now()
  return Effect.succeed({
    id: ports.ids.next("qt"),
    company_id: request.companyId,
    from_profile_id: from.id,
    to_profile_id: to.id,
    fee_strategy: strategy,
    payment_method: to.payment_method,
    instructed_amount: formatAmount(amount, currency),
    instructed_currency: currency,
    source_amount: formatAmount(price.right.sourceAmount, from.currency),
    source_currency: from.currency,
    target_amount: formatAmount(price.right.targetAmount, to.currency),
    target_currency: to.currency,
    fee: formatAmount(price.right.fee, from.currency),
    fee_currency: from.currency,
    exchange_rate: sameCurrency ? "1" : formatDecimal(rate, rateScale),
    currency_pair: sameCurrency ? null : `${from.currency}${to.currency}`,
    expected_completion_date: expectedCompletionDate(now, to.payment_method),
    expires_at: new Date(now.getTime() + quoteLifetimeMs).toISOString(),
    created_at: now.toISOString(),
  })
}
const failedRate = "Payment provider failed to provide an exchange rate"

/**
 * The provider's mid rate from `source` to `target`, asked outside any transaction: 1 for the
 * same currency, without asking; an answer that is not a positive decimal is the provider's failure.
 */
export const providerMidRate = (
  ports: Pick<ServicePorts, "paymentProvider">,
  source: string,
  target: string,
): Effect.Effect<Decimal, ProviderFailure> =>
  Effect.gen(function* () {
    if (source === target) return decimal(1n)
    const { rate } = yield* providerCall(failedRate, () => ports.paymentProvider.exchangeRate({ source, target }))
    const mid = parseDecimal(rate)
    if (mid === undefined || mid.units <= 0n) {
      return yield* Effect.fail(new ProviderFailure({ field: "base", message: failedRate }))
    }
    return mid
  })

/** A clock stopped at `ms`: the time a quote was priced at, carried between its transactions as a number. */
const fixedClock = (ms: number): Clock => ({ now: () => new Date(ms) })

/** Use cases of quotes. */
export const makeQuotes = (ports: ServicePorts) => {
  return {
    /**
     * Prices a transfer between two profiles (net or gross, same or cross currency) and keeps the
     * price for 15 minutes. The FX rate is asked of the provider outside any transaction.
     */
    create: (
      actor: Actor,
      companyId: CompanyId,
      body: unknown,
    ): Effect.Effect<Quote, Invalid | Forbidden | NotFound | ProviderFailure> =>
      Effect.gen(function* () {
        yield* requireWrite(actor)
        const input = yield* decodeWrapped("quote", QuoteFields, body, "Quote is required")
        // Same-currency quotes are read, priced and stored in one transaction; a cross-currency
        // quote asks the provider for its rate between two, never inside one. Each transaction
        // returns plain data and the stored row (a keyed request journals and replays them), and
        // the answer is built from that row only.
        const checked = yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const company = yield* findLiveCompany(tx, actor, companyId)
            // The workspace's clock as read here also stamps a quote priced after this transaction.
            const clock = yield* workspaceClock(ports, tx, actor.workspaceId)
            const { from, to, integrationActive } = yield* checkQuoteProfiles(
              tx,
              company.id,
              input.from_profile_id,
              input.to_profile_id,
            )
            const currency = input.instructed_amount.currency.toUpperCase()
            if (currency !== from.currency && currency !== to.currency) {
              return yield* invalid("instructed_amount", "Currency must match the source or target profile")
            }
            const amount = yield* parseInstructedAmount(input.instructed_amount.amount, currency)
            const request = { companyId: company.id, from, to, amount, currency, strategy: input.fee_strategy ?? "net" }
            const pricedAt = clock.now().getTime()
            if (from.currency !== to.currency) {
              if (!integrationActive)
                return yield* invalid("base", "no active payment-provider account found for the entity")
              return { request, pricedAt, stored: undefined }
            }
            const row = yield* pricedQuote(ports, request, decimal(1n), fixedClock(pricedAt))
            yield* tx.quotes.insert(row)
            return { request, pricedAt, stored: row }
          }),
        )
        const { request } = checked
        if (checked.stored !== undefined) return toQuote(checked.stored, request.from, request.to)
        const midRate = yield* providerMidRate(ports, request.from.currency, request.to.currency)
        const row = yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const priced = yield* pricedQuote(ports, request, midRate, fixedClock(checked.pricedAt))
            yield* tx.quotes.insert(priced)
            return priced
          }),
        )
        return toQuote(row, request.from, request.to)
      }),
  }
}

export type Quotes = ReturnType<typeof makeQuotes>
