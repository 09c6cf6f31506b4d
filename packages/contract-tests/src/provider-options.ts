import type { BankLinkProvider, PaymentMethodQuery, PaymentProvider, PaymentSubmission } from "@payments-engine/core"

/**
 * Every test of the provider contract suite, by id. Ids are stable: pass them to `skip`, and find
 * them at the start of each test title (`payments.idempotent: ...`).
 */
export const providerContractTestIds = [
  "countries.listed",
  "countries.unlisted-have-no-methods",
  "requirements.decode",
  "requirements.default-is-first-method",
  "requirements.details-satisfy",
  "requirements.unsupported-is-an-answer",
  "beneficiaries.idempotent",
  "beneficiaries.lost-answer",
  "rates.exact-decimals",
  "payments.minor-units",
  "payments.idempotent",
  "payments.find",
  "payments.lost-answer",
  "payments.rejection-decides-nothing",
  "payments.decline-is-an-outcome",
  "payments.final-outcomes",
  "bank-link.institutions",
  "bank-link.idempotent",
  "bank-link.linked-account",
  "bank-link.unlink",
] as const

export type ProviderContractTestId = (typeof providerContractTestIds)[number]

export const isProviderContractTestId = (id: string): id is ProviderContractTestId =>
  (providerContractTestIds as ReadonlyArray<string>).includes(id)

/** The provider calls whose answer a test double can lose or refuse on purpose. */
export type FaultableCall = "createBeneficiary" | "submitPayment"

/**
 * One provider as a test gets it from the factory: the ports, and the hooks of its transport a
 * test double offers. A hook absent skips the tests that need it.
 */
export interface ProviderUnderTest {
  readonly paymentProvider: PaymentProvider
  /** Absent: the bank-link tests report as skipped. */
  readonly bankLinker?: BankLinkProvider
  /**
   * Makes the next call of `method` take effect at the provider, then reject: the answer lost on
   * the way back (a timeout after the provider acted, a crash before the response was read).
   */
  readonly loseNextAnswer?: (method: FaultableCall) => void
  /**
   * Makes the next call of `method` reject before the provider acts on it (a refused connection,
   * a 503): a retryable error that decided nothing.
   */
  readonly refuseNextCall?: (method: FaultableCall) => void
  /** Runs after the test (close a recorder, a server). */
  readonly close?: () => Promise<void>
}

/** Amounts of a payment as the engine submits them: exact decimals in each currency's minor units. */
export type PaymentAmounts = Omit<PaymentSubmission, "paymentId" | "providerBeneficiaryId">

/** What the suite needs to know about the provider to ask it things it can answer. */
export interface ProviderFixtures {
  /**
   * A bank the provider pays (`query`) and beneficiary details of an account there that satisfy
   * the provider's default schema for it (`details`, as `beneficiary_details` of a bank account).
   */
  readonly beneficiary: { readonly query: PaymentMethodQuery; readonly details: Readonly<Record<string, unknown>> }
  /**
   * Pairs the provider quotes, each with the rate it is about (within 10 %) when the test
   * double's answer is known: a rate quoted the wrong way round is a hundredfold off for some pairs.
   */
  readonly rates: ReadonlyArray<{ readonly source: string; readonly target: string; readonly about?: string }>
  /**
   * Payments the provider completes, paid to the fixture's beneficiary. Cover a currency without
   * minor unit (JPY) and one with three (BHD) when the provider pays them.
   */
  readonly completes: ReadonlyArray<PaymentAmounts>
  /** A payment the provider declines (a `failed` outcome), when its test mode can decline one. */
  readonly declines?: PaymentAmounts
}

/** What an adapter author hands to {@link runProviderContractSuite}. */
export interface ProviderContractSuiteOptions {
  /** Title of the suite's `describe` block, e.g. "sandbox". */
  readonly name: string
  /** A fresh provider, called once per test; the suite calls its `close` afterwards. */
  readonly factory: () => Promise<ProviderUnderTest>
  readonly fixtures: ProviderFixtures
  /** Runs once before the suite (start a recorded-response server). */
  readonly setup?: () => Promise<void>
  /** Runs once after the suite. */
  readonly teardown?: () => Promise<void>
  /** Test ids not to run. Unknown ids are refused. Prefer leaving a hook absent. */
  readonly skip?: ReadonlyArray<ProviderContractTestId>
}
