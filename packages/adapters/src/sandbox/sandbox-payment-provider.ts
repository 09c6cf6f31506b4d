import { createHash } from "node:crypto"
import {
  divide,
  formatDecimal,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentSubmission,
  parseDecimal,
} from "@payments-engine/core"
import { sandboxPaymentMethods, sandboxRequirements } from "./sandbox-requirements.ts"

/** Units of each currency one US dollar buys in the sandbox: fixed, so quotes are reproducible. */
export const sandboxUsdRates: Readonly<Record<string, string>> = {
  USD: "1",
  EUR: "0.92",
  GBP: "0.79",
  AUD: "1.53",
  CAD: "1.37",
  INR: "83.25",
  SGD: "1.34",
  JPY: "149.5",
  MXN: "17.1",
  CHF: "0.88",
}

type ProviderMethod =
  | "paymentMethods"
  | "bankAccountRequirements"
  | "createBeneficiary"
  | "exchangeRate"
  | "submitPayment"

export interface SandboxPaymentProviderOptions {
  /** Milliseconds every call waits before answering, to simulate a remote provider. 0 by default. */
  readonly latencyMs?: number
  /** How to wait; `setTimeout` by default (tests pass their own). */
  readonly sleep?: (ms: number) => Promise<void>
  /** Rates per US dollar replacing {@link sandboxUsdRates}. */
  readonly usdRates?: Readonly<Record<string, string>>
}

/** The sandbox's test amounts: an instructed amount with minor part .13 (or ending in 13 without decimals) fails. */
export const isSandboxFailureAmount = (amount: string): boolean =>
  amount.includes(".") ? amount.split(".")[1]!.startsWith("13") : amount.endsWith("13")

/**
 * The sandbox payment provider: bank-account schemas for US, GB, the euro area, AU, CA, IN, SG,
 * JP and MX, deterministic FX rates, and payments that complete unless the amount ends in .13.
 * Every call can be delayed (`latencyMs`) or made to fail once (`failNext`).
 *
 * @example
 * const provider = createSandboxPaymentProvider()
 * await provider.exchangeRate({ source: "USD", target: "EUR" }) // { rate: "0.92000000" }
 */
export const createSandboxPaymentProvider = (options: SandboxPaymentProviderOptions = {}) => {
  const rates = options.usdRates ?? sandboxUsdRates
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const failures = new Map<ProviderMethod, Error>()
  const outcomes = new Map<string, PaymentOutcome>()
  const submissions: PaymentSubmission[] = []

  const call = async <A>(method: ProviderMethod, answer: () => A): Promise<A> => {
    if ((options.latencyMs ?? 0) > 0) await sleep(options.latencyMs!)
    const failure = failures.get(method)
    if (failure) {
      failures.delete(method)
      throw failure
    }
    return answer()
  }

  const usdRate = (currency: string) => {
    const rate = rates[currency] === undefined ? undefined : parseDecimal(rates[currency]!)
    if (rate === undefined) throw new Error(`The sandbox has no exchange rate for ${currency}`)
    return rate
  }

  const provider: PaymentProvider & {
    failNext(method: ProviderMethod, error: Error): void
    submittedPayments(): ReadonlyArray<PaymentSubmission>
  } = {
    paymentMethods: (query) =>
      call("paymentMethods", () => sandboxPaymentMethods(query.countryCode, query.currencyCode)),
    bankAccountRequirements: (query) => call("bankAccountRequirements", () => sandboxRequirements(query)),
    createBeneficiary: (request) =>
      call("createBeneficiary", () => ({
        providerBeneficiaryId: `ben_${createHash("sha256").update(request.reference).digest("hex").slice(0, 24)}`,
      })),
    exchangeRate: ({ source, target }) =>
      call("exchangeRate", () => ({ rate: formatDecimal(divide(usdRate(target), usdRate(source), 8), 8) })),
    submitPayment: (request) =>
      call("submitPayment", () => {
        const earlier = outcomes.get(request.paymentId)
        if (earlier) return earlier
        submissions.push(request)
        const providerPaymentId = `ppay_${createHash("sha256").update(request.paymentId).digest("hex").slice(0, 24)}`
        const outcome: PaymentOutcome = isSandboxFailureAmount(request.instructedAmount)
          ? { status: "failed", providerPaymentId, reason: "Sandbox test amount ending in .13" }
          : { status: "completed", providerPaymentId }
        outcomes.set(request.paymentId, outcome)
        return outcome
      }),
    failNext: (method, error) => {
      failures.set(method, error)
    },
    submittedPayments: () => [...submissions],
  }
  return provider
}

export type SandboxPaymentProvider = ReturnType<typeof createSandboxPaymentProvider>
