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
