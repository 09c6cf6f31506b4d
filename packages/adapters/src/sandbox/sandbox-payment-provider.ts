import { createHash } from "node:crypto"
import {
  type BankAccountId,
  type Decimal,
  divide,
  formatDecimal,
  isPositive,
  minorUnits,
  type PaymentId,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentSubmission,
  parseDecimal,
} from "@payments-engine/core"
import { sandboxCountries, sandboxPaymentMethods, sandboxRequirements } from "./sandbox-requirements.ts"

/**
 * Units of each currency one US dollar buys in the sandbox: fixed, so quotes are reproducible.
 * Cross rates are computed from these exactly.
 */
export const sandboxUsdRates: Readonly<Record<string, string>> = {
  USD: "1",
  EUR: "0.92",
  GBP: "0.79",
  CHF: "0.88",
  AUD: "1.53",
  CAD: "1.37",
  INR: "83.25",
  SGD: "1.34",
  JPY: "149.5",
  MXN: "17.1",
  HKD: "7.82",
  NZD: "1.66",
  SEK: "10.45",
  NOK: "10.62",
  DKK: "6.87",
  PLN: "3.98",
  CNY: "7.24",
  BHD: "0.376",
}

/** Decimals of the rates the sandbox quotes. */
const rateScale = 8

/** The reason of a payment the sandbox fails on purpose. */
export const sandboxFailureReason = "Sandbox test amount ending in .13"

/** The provider's methods, for failure injection. */
export type SandboxProviderMethod =
  | "bankCountries"
  | "paymentMethods"
  | "bankAccountRequirements"
  | "createBeneficiary"
  | "exchangeRate"
  | "submitPayment"
  | "findPayment"

/** How an injected failure behaves: `true` throws a generic error, an `Error` is thrown as it is. */
export type SandboxFailure = true | Error

export interface SandboxPaymentProviderOptions {
  /** Milliseconds every call waits before answering, through `sleep`, to simulate a remote provider. 0 by default. */
  readonly latencyMs?: number
  /** How to wait; `setTimeout` by default. Tests pass their own so nothing really waits. */
  readonly sleep?: (ms: number) => Promise<void>
  /**
   * Units per US dollar, merged over {@link sandboxUsdRates}: override a rate or add a currency.
   * Each must be a positive decimal string ("0.92").
   */
  readonly rates?: Readonly<Record<string, string>>
  /** Methods that fail on every call (after the latency) until {@link SandboxPaymentProvider.setFailure} clears them. */
  readonly failures?: Partial<Record<SandboxProviderMethod, SandboxFailure | false>>
}

/** A payment the sandbox executed: the first submission of its payment id, and what came of it. */
export interface SandboxSubmittedPayment extends PaymentSubmission {
  readonly outcome: PaymentOutcome
}

/** The sandbox payment provider, plus what tests need to steer and inspect it. */
export interface SandboxPaymentProvider extends PaymentProvider {
  /**
   * Makes the next call of `method` reject with `error`, once (calls queue up). With
   * `when: "after"` the call first takes effect and then rejects, as a provider whose answer is
   * lost on the way back: a payment is executed, a beneficiary registered, yet the caller sees
   * an error and will retry.
   *
   * @example
   * declare const provider: SandboxPaymentProvider
   * provider.failNext("submitPayment", new Error("timeout"), "after")
   */
  failNext(method: SandboxProviderMethod, error?: Error, when?: "before" | "after"): void
  /** Makes every call of `method` fail (`true` or an error) or work again (`false`). */
  setFailure(method: SandboxProviderMethod, failure: SandboxFailure | false): void
  /** The payments executed, in order: one per payment id, however often it was submitted. */
  submittedPayments(): ReadonlyArray<SandboxSubmittedPayment>
  /** The beneficiaries registered, by `reference`: the provider's id and the details first sent. */
  beneficiaries(): ReadonlyMap<BankAccountId, { readonly providerBeneficiaryId: string; readonly details: unknown }>
}

/**
 * True for the sandbox's test amounts: an instructed amount whose minor part is .13 ("10.13"
 * USD, "10.130" BHD), or, in a currency without minor unit, whose last two digits are 13
 * ("1013" JPY). Exact bigint arithmetic, no floating point.
 *
 * @example
 * isSandboxFailureAmount("250.13", "USD") // true
 * isSandboxFailureAmount("1013", "JPY") // true
 * isSandboxFailureAmount("10.31", "USD") // false
 */
export const isSandboxFailureAmount = (amount: string, currency: string): boolean => {
  const value = parseDecimal(amount)
  if (value === undefined) return false
  let digits: number
  try {
    digits = minorUnits(currency)
  } catch {
    digits = value.scale
  }
  const units = value.units < 0n ? -value.units : value.units
  const unit = 10n ** BigInt(value.scale)
  if (digits === 0) return units % unit === 0n && (units / unit) % 100n === 13n
  // the amount in hundredths must be whole and end in 13: "x.13", "x.130" ...
  return (units * 100n) % unit === 0n && ((units * 100n) / unit) % 100n === 13n
}

const deterministicId = (prefix: string, key: string) =>
  `${prefix}_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`

const readRates = (overrides: Readonly<Record<string, string>>): ReadonlyMap<string, Decimal> => {
  const rates = new Map<string, Decimal>()
  for (const [currency, text] of Object.entries({ ...sandboxUsdRates, ...overrides })) {
    const rate = parseDecimal(text)
    if (!/^[A-Z]{3}$/.test(currency) || rate === undefined || !isPositive(rate)) {
      throw new RangeError(
        `Sandbox rate for ${currency} must be a positive decimal string, got ${JSON.stringify(text)}`,
      )
    }
    rates.set(currency, rate)
  }
  return rates
}

/**
 * The sandbox payment provider: bank-account schemas for US, CA, MX, GB, the euro area (AT BE DE
 * ES FI FR IE IT NL PT), AU, IN, SG and JP; fixed mid rates with exact cross rates; beneficiaries
 * and payments keyed by the engine's ids, so repeating a call changes nothing; payments that
 * complete unless the instructed amount ends in .13 ({@link isSandboxFailureAmount}), whose outcome
 * `findPayment` answers from what was submitted. Every call can be delayed (`latencyMs`, through
 * an injectable `sleep`) or made to fail (`failures`, {@link SandboxPaymentProvider.failNext}).
 *
 * @example
 * declare const submission: PaymentSubmission
 * const provider = createSandboxPaymentProvider()
 * await provider.exchangeRate({ source: "USD", target: "EUR" }) // { rate: "0.92000000" }
 * await provider.submitPayment({ ...submission, instructedAmount: "10.13", instructedCurrency: "USD" })
 * // { status: "failed", providerPaymentId: "ppay_...", reason: "Sandbox test amount ending in .13" }
 * await provider.findPayment(submission.paymentId) // the same outcome; undefined for an id never submitted
 */
export const createSandboxPaymentProvider = (options: SandboxPaymentProviderOptions = {}): SandboxPaymentProvider => {
  const latencyMs = options.latencyMs ?? 0
  if (!Number.isFinite(latencyMs) || latencyMs < 0) {
    throw new RangeError(`latencyMs must be a finite number of milliseconds >= 0, got ${latencyMs}`)
  }
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const rates = readRates(options.rates ?? {})
  const standing = new Map<SandboxProviderMethod, SandboxFailure>()
  for (const [method, failure] of Object.entries(options.failures ?? {})) {
    if (failure) standing.set(method as SandboxProviderMethod, failure)
  }
  const queued = new Map<SandboxProviderMethod, Array<{ error: Error; when: "before" | "after" }>>()
  const outcomes = new Map<PaymentId, SandboxSubmittedPayment>()
  const beneficiaries = new Map<BankAccountId, { providerBeneficiaryId: string; details: unknown }>()

  const injected = (method: SandboxProviderMethod) =>
    new Error(`Sandbox payment provider: injected failure of ${method}`)

  /** Waits the latency, then answers, unless a failure was injected for the method. */
  const call = async <A>(method: SandboxProviderMethod, answer: () => A): Promise<A> => {
    if (latencyMs > 0) await sleep(latencyMs)
    const failure = standing.get(method)
    if (failure !== undefined) throw failure === true ? injected(method) : failure
    const next = queued.get(method)?.shift()
    if (next?.when === "before") throw next.error
    const result = answer()
    if (next?.when === "after") throw next.error
    return result
  }

  const usdRate = (currency: string) => {
    const rate = rates.get(currency)
    if (rate === undefined) throw new Error(`The sandbox has no exchange rate for currency ${currency}`)
    return rate
  }

  return {
    bankCountries: () => call("bankCountries", () => Object.keys(sandboxCountries).sort()),

    paymentMethods: (query) => call("paymentMethods", () => sandboxPaymentMethods(query)),

    bankAccountRequirements: (query) => call("bankAccountRequirements", () => sandboxRequirements(query)),

    createBeneficiary: (request) =>
      call("createBeneficiary", () => {
        const known = beneficiaries.get(request.reference)
        if (known) return { providerBeneficiaryId: known.providerBeneficiaryId }
        const providerBeneficiaryId = deterministicId("ben", request.reference)
        beneficiaries.set(request.reference, { providerBeneficiaryId, details: request.details })
        return { providerBeneficiaryId }
      }),

    // 1 source = (target per USD) / (source per USD) target, rounded half up to 8 decimals, in bigint
    exchangeRate: ({ source, target }) =>
      call("exchangeRate", () => {
        const rate = divide(usdRate(target), usdRate(source), rateScale)
        return { rate: formatDecimal(rate, rateScale) }
      }),

    submitPayment: (request) =>
      call("submitPayment", () => {
        const earlier = outcomes.get(request.paymentId)
        if (earlier) return earlier.outcome
        const providerPaymentId = deterministicId("ppay", request.paymentId)
        const outcome: PaymentOutcome = isSandboxFailureAmount(request.instructedAmount, request.instructedCurrency)
          ? { status: "failed", providerPaymentId, reason: sandboxFailureReason }
          : { status: "completed", providerPaymentId }
        outcomes.set(request.paymentId, { ...request, outcome })
        return outcome
      }),

    // What submitPayment recorded: a payment whose submission failed before it took effect is unknown.
    findPayment: (paymentId) => call("findPayment", () => outcomes.get(paymentId)?.outcome),

    failNext: (method, error = injected(method), when = "before") => {
      const queue = queued.get(method) ?? []
      queue.push({ error, when })
      queued.set(method, queue)
    },

    setFailure: (method, failure) => {
      if (failure) standing.set(method, failure)
      else standing.delete(method)
    },

    submittedPayments: () => [...outcomes.values()],

    beneficiaries: () => new Map(beneficiaries),
  }
}
