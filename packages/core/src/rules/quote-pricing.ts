import { Either } from "effect"
import { Invalid } from "../errors.ts"
import type { FeeStrategy } from "../model/types/quote.ts"
import { minorUnits } from "../money/currencies.ts"
import {
  add,
  compare,
  type Decimal,
  decimal,
  divide,
  formatDecimal,
  fromJsonNumber,
  isPositive,
  multiply,
  parseDecimal,
  roundHalfUp,
  significantScale,
  subtract,
  zero,
} from "../money/decimal.ts"
import type { FeeRule } from "./fee-schedule.ts"

/** Decimals kept in a customer exchange rate. */
export const rateScale = 8
/** The largest instructed amount, in units of its currency. */
export const maximumInstructedAmount = decimal(1_000_000_000n)

const amountField = "instructed_amount"

/**
 * Reads the quote's `instructed_amount.amount` (a JSON number) exactly, and checks it against the
 * currency: no more decimals than its minor unit, above zero, at most 1,000,000,000.
 */
export const parseInstructedAmount = (amount: number, currency: string): Either.Either<Decimal, Invalid> => {
  const value = fromJsonNumber(amount)
  if (value === undefined) return Either.left(Invalid.rule(amountField, "must be a number"))
  if (!isPositive(value)) return Either.left(Invalid.rule(amountField, "Instructed amount must be greater than zero"))
  if (compare(value, maximumInstructedAmount) > 0) {
    return Either.left(Invalid.rule(amountField, "Instructed amount exceeds the maximum"))
  }
  if (significantScale(value) > minorUnits(currency)) {
    return Either.left(Invalid.rule(amountField, `Amount has too many decimal places for ${currency}`))
  }
  return Either.right(value)
}

/**
 * The customer rate: the provider's mid rate less the FX margin, rounded half up to
 * {@link rateScale} decimals. 1 for the same currency.
 */
export const customerRate = (midRate: Decimal, marginBasisPoints: number, sameCurrency: boolean): Decimal =>
  sameCurrency ? decimal(1n) : roundHalfUp(multiply(midRate, decimal(BigInt(10_000 - marginBasisPoints), 4)), rateScale)

/**
 * Fixed part plus basis points of `principal`, rounded half up to the source currency. The rule
 * comes from a schedule `createEngine` checked (`checkedFeeSchedule`): a fixed fee that does
 * not parse here is a defect and throws, never a fee of 0.
 */
export const computeFee = (rule: FeeRule, principal: Decimal, sourceCurrency: string): Decimal => {
  const fixedText = rule.fixed[sourceCurrency]
  const fixed = fixedText === undefined ? zero : parseDecimal(fixedText)
  if (fixed === undefined) {
    throw new RangeError(`Fixed fee for ${sourceCurrency} is not a decimal amount: ${JSON.stringify(fixedText)}`)
  }
  const variable = multiply(principal, decimal(BigInt(rule.basisPoints), 4))
  return roundHalfUp(add(fixed, variable), minorUnits(sourceCurrency))
}

export interface QuotePricingInput {
  /** Already checked by {@link parseInstructedAmount}. */
  readonly amount: Decimal
  readonly instructedCurrency: string
  readonly sourceCurrency: string
  readonly targetCurrency: string
  readonly strategy: FeeStrategy
  /** From {@link customerRate}: 1 source unit buys `rate` target units. */
  readonly rate: Decimal
  readonly fee: FeeRule
}

/** Amounts of a quote, each rounded once to its currency's minor unit. */
export interface QuotePrice {
  readonly sourceAmount: Decimal
  readonly targetAmount: Decimal
  readonly fee: Decimal
}

const tooSmall = () => Invalid.rule(amountField, "Instructed amount is too small to be paid after fees and conversion")

/**
 * Prices a quote (DECISIONS, Money): net adds the fee on top of what the recipient gets, gross
 * takes it out of what the sender pays. Amounts are exact and rounded half up once, at the end of
 * each computation; the fee is always in the source currency.
 *
 * @example
 * priceQuote({ amount: decimal(10000n, 2), instructedCurrency: "USD", sourceCurrency: "USD", targetCurrency: "USD",
 *   strategy: "net", rate: decimal(1n), fee: { fixed: { USD: "0.25" }, basisPoints: 0 } })
 * // Right({ sourceAmount: 100.25, targetAmount: 100.00, fee: 0.25 })
 */
export const priceQuote = (input: QuotePricingInput): Either.Either<QuotePrice, Invalid> => {
  const { amount, instructedCurrency, sourceCurrency, targetCurrency, strategy, rate, fee: rule } = input
  if (instructedCurrency !== sourceCurrency && instructedCurrency !== targetCurrency) {
    return Either.left(Invalid.rule(amountField, "Currency must match the source or target profile"))
  }
  const sourceUnits = minorUnits(sourceCurrency)
  const targetUnits = minorUnits(targetCurrency)
  const toTarget = (source: Decimal) => roundHalfUp(multiply(source, rate), targetUnits)

  if (strategy === "gross") {
    if (instructedCurrency !== sourceCurrency) {
      return Either.left(Invalid.rule("fee_strategy", "Gross quotes must be instructed in the source currency"))
    }
    const fee = computeFee(rule, amount, sourceCurrency)
    if (compare(fee, amount) >= 0) {
      return Either.left(Invalid.rule(amountField, "Instructed amount must be greater than the fee"))
    }
    const targetAmount = toTarget(subtract(amount, fee))
    if (!isPositive(targetAmount)) return Either.left(tooSmall())
    return Either.right({ sourceAmount: roundHalfUp(amount, sourceUnits), targetAmount, fee })
  }

  const principal = instructedCurrency === sourceCurrency ? amount : divide(amount, rate, sourceUnits)
  const targetAmount = instructedCurrency === targetCurrency ? roundHalfUp(amount, targetUnits) : toTarget(amount)
  if (!isPositive(principal) || !isPositive(targetAmount)) return Either.left(tooSmall())
  const fee = computeFee(rule, principal, sourceCurrency)
  return Either.right({ sourceAmount: roundHalfUp(add(principal, fee), sourceUnits), targetAmount, fee })
}

/** An amount as the API shows it: a decimal string with the currency's minor units. */
export const formatAmount = (amount: Decimal, currency: string): string => formatDecimal(amount, minorUnits(currency))
