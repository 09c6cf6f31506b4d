import { Effect, Either } from "effect"
import { type Invalid, ProviderFailure } from "../../errors.ts"
import type { CompanyId } from "../../model/ids.ts"
import { isoTime } from "../../model/iso-time.ts"
import type { FeeStrategy } from "../../model/quote.ts"
import { quoteLifetimeMs } from "../../model/types/quote.ts"
import { type Decimal, decimal, formatDecimal, parseDecimal } from "../../money/decimal.ts"
import type { Clock } from "../../ports/clock.ts"
import type { PaymentProfileRecord, QuoteRecord } from "../../ports/storage/index.ts"
import { expectedCompletionDate } from "../../rules/expected-completion.ts"
import { feeRuleFor } from "../../rules/fee-schedule.ts"
import { customerRate, formatAmount, priceQuote, rateScale } from "../../rules/quote-pricing.ts"
import { providerCall } from "./provider-call.ts"
import type { ServicePorts } from "./service-ports.ts"

/*
 * Pricing a quote at the provider's rate: for a new quote (`quotes.create`), and for a batch
 * payment's expired quote priced again when its lane runs.
 */

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
    expires_at: isoTime(new Date(now.getTime() + quoteLifetimeMs)),
    created_at: isoTime(now),
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
    const { rate } = yield* providerCall({ port: "payment", operation: "exchangeRate" }, failedRate, () =>
      ports.paymentProvider.exchangeRate({ source, target }),
    )
    const mid = parseDecimal(rate)
    if (mid === undefined || mid.units <= 0n) {
      return yield* Effect.fail(new ProviderFailure({ field: "base", message: failedRate }))
    }
    return mid
  })
