import type { BankAccountRequirements, PaymentMethod } from "../model/types/bank-account-requirements.ts"
import type { BankAccountId, PaymentId } from "../model/types/ids.ts"

/**
 * The payment provider port: what the engine needs from the outside payment service (payment
 * methods, bank-account form schemas, beneficiaries, FX rates, payment execution).
 *
 * Every method is keyed by the engine's own ids where it creates something, so a call repeated
 * after a crash never creates or pays twice.
 *
 * @example
 * const provider = createSandboxPaymentProvider({ latencyMs: 0 })
 * const methods = await provider.paymentMethods({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY" })
 */
export interface PaymentProvider {
  /**
   * The bank countries the provider pays to (ISO 3166-1 alpha-2, upper case): what a form offers
   * as the country of a recipient's bank. A country not listed has no payment methods.
   */
  bankCountries(): Promise<ReadonlyArray<string>>
  /** Transfer methods and clearing systems for a bank country and currency. Empty when none. */
  paymentMethods(query: PaymentMethodQuery): Promise<ReadonlyArray<PaymentMethodOption>>
  /**
   * The form schema a bank account must satisfy. Absent `transferMethod`/`localClearingSystem`
   * mean the provider's default for the country (the first of `paymentMethods`). An unsupported
   * combination answers `{ ok: false, message }`, a message fit to pass to the client.
   */
  bankAccountRequirements(query: RequirementsQuery): Promise<RequirementsAnswer>
  /** Registers a recipient bank account with the provider. Same `reference` twice: same result. */
  createBeneficiary(request: BeneficiaryRequest): Promise<{ readonly providerBeneficiaryId: string }>
  /**
   * Mid-market rate: 1 unit of `source` is `rate` units of `target`, as an exact decimal string
   * ("0.92153400"). The engine applies its own margin.
   */
  exchangeRate(pair: { readonly source: string; readonly target: string }): Promise<{ readonly rate: string }>
  /**
   * Executes a payment. Keyed by `paymentId`: a second call for the same id returns the first
   * outcome and moves no money (a job interrupted by a crash calls again). Must settle (answer or
   * reject) within a bounded time, a minute say: a runner holds the job until the call settles.
   */
  submitPayment(request: PaymentSubmission): Promise<PaymentOutcome>
  /**
   * The outcome of the payment submitted with `paymentId`: what `submitPayment` answered for it,
   * and would answer again. Undefined means the provider never received a submission with that
   * id (it has moved no money for it). Reads only. The engine asks when it does not know how a
   * call ended (a lost answer, a crash, a job given up), and settles the payment from the answer
   * instead of submitting again. Must settle within a bounded time, as `submitPayment` must.
   */
  findPayment(paymentId: PaymentId): Promise<PaymentOutcome | undefined>
}

export type EntityType = "COMPANY" | "PERSONAL"

export interface PaymentMethodQuery {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly countryCode: string
  /** ISO 4217, upper case. */
  readonly currencyCode: string
  readonly entityType: EntityType
}

/** One entry of `GET /api/v1/payment_methods` ({@link PaymentMethod}). */
export type PaymentMethodOption = PaymentMethod

export interface RequirementsQuery extends PaymentMethodQuery {
  /** Upper case ("LOCAL", "SWIFT") or absent. */
  readonly transferMethod?: string
  /** Upper case ("ACH", "FEDWIRE", "SEPA", "FPS", ...) or absent. */
  readonly localClearingSystem?: string
}

export type RequirementsAnswer =
  | { readonly ok: true; readonly schema: RequirementsSchema }
  | { readonly ok: false; readonly message: string }

/**
 * The spec's bank-account requirements schema, `data` of the endpoint
 * ({@link BankAccountRequirements}), and how an account that satisfies it is paid.
 */
export interface RequirementsSchema extends BankAccountRequirements {
  /**
   * The payment method of the profile and routing detail of an account that satisfies this
   * schema (ach, wire, swift, sepa, fps, ...). Not part of the wire shape.
   */
  readonly payment_method: string
}

/** `beneficiary_details` of a bank-account create, already validated against the schema. */
export interface BeneficiaryRequest {
  /** The engine's bank account id; the provider's idempotency key. */
  readonly reference: BankAccountId
  readonly details: Readonly<Record<string, unknown>>
}

export interface PaymentSubmission {
  readonly paymentId: PaymentId
  /** Exact decimal strings in the currencies' minor units. */
  readonly sourceAmount: string
  readonly sourceCurrency: string
  readonly targetAmount: string
  readonly targetCurrency: string
  /** The instructed amount, which decides the sandbox's test outcomes (".13" fails). */
  readonly instructedAmount: string
  readonly instructedCurrency: string
  readonly paymentMethod: string
  readonly providerBeneficiaryId: string | null
}

export type PaymentOutcome =
  | { readonly status: "completed"; readonly providerPaymentId: string }
  | { readonly status: "failed"; readonly providerPaymentId: string; readonly reason: string }
