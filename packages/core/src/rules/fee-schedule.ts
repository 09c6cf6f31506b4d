import { isIsoCurrency, minorUnits } from "../money/currencies.ts"
import { parseDecimal, significantScale } from "../money/decimal.ts"

/**
 * Fees of one payment method: a fixed amount in the source currency plus basis points of the
 * source amount. `fixed` is keyed by source currency; a currency without an entry pays no fixed fee.
 */
export interface FeeRule {
  readonly fixed: Readonly<Record<string, string>>
  readonly basisPoints: number
}

/**
 * The fee schedule: per payment method (the `to_profile`'s method), a default for methods not
 * listed, and the margin taken on cross-currency rates.
 *
 * @example
 * const schedule: FeeSchedule = { methods: { ach: { fixed: { USD: "0.25" }, basisPoints: 0 } }, other: { fixed: {}, basisPoints: 30 }, fxMarginBasisPoints: 50 }
 */
export interface FeeSchedule {
  readonly methods: Readonly<Record<string, FeeRule>>
  readonly other: FeeRule
  readonly fxMarginBasisPoints: number
}

/** The sandbox's schedule, documented in the README. */
export const defaultFeeSchedule: FeeSchedule = {
  methods: {
    ach: { fixed: { USD: "0.25" }, basisPoints: 0 },
    wire: { fixed: { USD: "15.00" }, basisPoints: 0 },
    sepa: { fixed: { EUR: "0.20" }, basisPoints: 0 },
    fps: { fixed: { GBP: "0.20" }, basisPoints: 0 },
    swift: { fixed: { USD: "25.00", EUR: "20.00", GBP: "18.00" }, basisPoints: 10 },
    balance: { fixed: {}, basisPoints: 0 },
  },
  other: { fixed: {}, basisPoints: 30 },
  fxMarginBasisPoints: 50,
}

/** The rule for a payment method. */
export const feeRuleFor = (schedule: FeeSchedule, paymentMethod: string): FeeRule =>
  schedule.methods[paymentMethod] ?? schedule.other

const basisPointsProblems = (path: string, value: unknown): ReadonlyArray<string> =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= 10_000
    ? []
    : [`${path} must be a whole number of basis points from 0 to 10000, got ${JSON.stringify(value)}`]

const fixedAmountProblem = (path: string, currency: string, text: unknown): string | undefined => {
  if (!isIsoCurrency(currency)) return `${path} must be keyed by ISO 4217 currency codes in upper case`
  const amount = typeof text === "string" ? parseDecimal(text) : undefined
  if (amount === undefined) return `${path} must be a decimal amount, got ${JSON.stringify(text)}`
  if (amount.units < 0n) return `${path} must not be negative, got ${JSON.stringify(text)}`
  const decimals = minorUnits(currency)
  return significantScale(amount) > decimals
    ? `${path} must have at most ${decimals} decimals for ${currency}, got ${JSON.stringify(text)}`
    : undefined
}

const ruleProblems = (path: string, rule: FeeRule | undefined): ReadonlyArray<string> => {
  if (typeof rule !== "object" || rule === null) return [`${path} must be a fee rule ({ fixed, basisPoints })`]
  if (typeof rule.fixed !== "object" || rule.fixed === null) {
    return [`${path}.fixed must be an object of amounts by currency code`]
  }
  return [
    ...Object.entries(rule.fixed).flatMap(
      ([currency, text]) => fixedAmountProblem(`${path}.fixed.${currency}`, currency, text) ?? [],
    ),
    ...basisPointsProblems(`${path}.basisPoints`, rule.basisPoints),
  ]
}

/**
 * Everything in a schedule that pricing could not use exactly, one message per bad value, named
 * by its path: fixed amounts must be non-negative decimals with at most their currency's minor
 * units, keyed by ISO 4217 codes; basis points whole, from 0 to 10000. Empty for a usable
 * schedule. Checked once when the engine is made, so a typo is refused at start-up instead of
 * pricing every quote of that method without its fixed fee.
 *
 * @example
 * feeScheduleProblems({ ...defaultFeeSchedule, methods: { ach: { fixed: { USD: "abc" }, basisPoints: 0 } } })
 * // ['feeSchedule.methods.ach.fixed.USD must be a decimal amount, got "abc"']
 */
export const feeScheduleProblems = (schedule: FeeSchedule): ReadonlyArray<string> => {
  const methods: Readonly<Record<string, FeeRule>> =
    typeof schedule.methods === "object" && schedule.methods !== null ? schedule.methods : {}
  return [
    ...(methods === schedule.methods ? [] : ["feeSchedule.methods must be an object of fee rules by payment method"]),
    ...Object.entries(methods).flatMap(([method, rule]) => ruleProblems(`feeSchedule.methods.${method}`, rule)),
    ...ruleProblems("feeSchedule.other", schedule.other),
    ...basisPointsProblems("feeSchedule.fxMarginBasisPoints", schedule.fxMarginBasisPoints),
  ]
}

/**
 * The schedule itself when {@link feeScheduleProblems} finds nothing; otherwise throws a
 * RangeError naming every problem, as `createEngine` does for its other options.
 *
 * @example
 * checkedFeeSchedule(defaultFeeSchedule) // the same schedule
 * checkedFeeSchedule({ ...defaultFeeSchedule, fxMarginBasisPoints: 1.5 })
 * // throws RangeError: feeSchedule.fxMarginBasisPoints must be a whole number of basis points from 0 to 10000, got 1.5
 */
export const checkedFeeSchedule = (schedule: FeeSchedule): FeeSchedule => {
  const problems = feeScheduleProblems(schedule)
  if (problems.length > 0) throw new RangeError(problems.join("; "))
  return schedule
}
