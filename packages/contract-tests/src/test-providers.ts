import type {
  BankAccountId,
  BankLinkProvider,
  BeneficiaryRequest,
  LinkedAccount,
  PaymentId,
  PaymentOutcome,
  PaymentProvider,
  PaymentSubmission,
  RequirementField,
} from "@payments-engine/core"

const field = (
  path: string,
  rule: { readonly type?: "REGEX" | "ABA_ROUTING_NUMBER"; readonly pattern: string },
  fixed: string | null = null,
): RequirementField => ({
  enabled: true,
  path,
  required: true,
  field: { key: path.split(".").at(-1)!, label: path, type: "INPUT", options: [], default: fixed, refresh: false },
  rule: { type: rule.type ?? "REGEX", pattern: rule.pattern, minimum_length: null, maximum_length: null },
})

/** The one bank account shape the fake provider accepts: US, USD, ACH, an ABA routing number. */
export const testBeneficiary = {
  entity_type: "COMPANY",
  bank_details: {
    account_name: "Test Supplier",
    bank_country_code: "US",
    account_currency: "USD",
    account_number: "123456789",
    account_routing_type1: "aba",
    account_routing_value1: "021000021",
  },
}

/** The fake provider's mid-market rates: 1 unit of the first currency is this many of the second. */
export const testRates: Readonly<Record<string, string>> = { USDEUR: "0.5", EURUSD: "2" }

/** One call of `submitPayment`, with what the provider answered. */
export interface RecordedSubmission extends PaymentSubmission {
  /** The outcome it answered (the first one again for a repeated id), or "unavailable" when it rejected. */
  readonly answer: PaymentOutcome["status"] | "unavailable"
}

/** A payment provider with fixed answers that records what it was asked to pay. */
export interface TestPaymentProvider extends PaymentProvider {
  /** Every `submitPayment` call, in order, repeats and rejected calls included. */
  readonly submissions: ReadonlyArray<RecordedSubmission>
  /** Every `createBeneficiary` call, in order. */
  readonly beneficiaries: ReadonlyArray<BeneficiaryRequest>
  /**
   * Makes the next `times` `submitPayment` calls for this payment reject, as a provider that is
   * down would: they decide nothing, and a later call decides the outcome.
   */
  makeUnavailable(paymentId: PaymentId, times: number): void
  /**
   * Makes the next `submitPayment` call decide and record its payment, then reject, as when the
   * process that called dies before the answer arrives: the payment is made, the caller never
   * learns it.
   */
  loseNextAnswer(): void
}

/** True for an instructed amount the fake provider fails: its minor part is 13 (`"40.13"`). */
export const failsAtProvider = (instructedAmount: string): boolean => instructedAmount.endsWith(".13")

/**
 * A tiny deterministic payment provider: one requirements schema (US/USD/ACH with an account
 * number and an ABA routing number), fixed rates ({@link testRates}), and payments that complete
 * unless the instructed amount ends in .13. `submitPayment` is idempotent per payment id, as the
 * port requires: a repeated id gets the first outcome and moves no money, but the call is still
 * recorded, so a test can count what the engine asked. `findPayment` answers that outcome, or
 * undefined for an id it never decided (one that was only ever unavailable).
 */
export const testPaymentProvider = (): TestPaymentProvider => {
  const submissions: RecordedSubmission[] = []
  const beneficiaries: BeneficiaryRequest[] = []
  const outcomes = new Map<PaymentId, PaymentOutcome>()
  const unavailable = new Map<PaymentId, number>()
  let loseAnswer = false
  return {
    submissions,
    beneficiaries,
    makeUnavailable: (paymentId, times) => {
      unavailable.set(paymentId, times)
    },
    loseNextAnswer: () => {
      loseAnswer = true
    },
    bankCountries: async () => ["US"],
    paymentMethods: async ({ countryCode, currencyCode }) =>
      countryCode === "US" && currencyCode === "USD"
        ? [{ transfer_method: "LOCAL", local_clearing_systems: ["ACH"] }]
        : [],
    bankAccountRequirements: async (query) =>
      query.countryCode === "US" && query.currencyCode === "USD"
        ? {
            ok: true,
            schema: {
              condition: {
                account_currency: "USD",
                bank_country_code: "US",
                entity_type: query.entityType,
                local_clearing_system: "ACH",
                transfer_method: "LOCAL",
              },
              fields: [
                field("bank_details.account_name", { pattern: "^.+$" }),
                field("bank_details.account_number", { pattern: "^[0-9]{4,17}$" }),
                field("bank_details.account_routing_type1", { pattern: "^aba$" }, "aba"),
                field("bank_details.account_routing_value1", { type: "ABA_ROUTING_NUMBER", pattern: "^[0-9]{9}$" }),
              ],
              payment_method: "ach",
            },
          }
        : { ok: false, message: `Bank country ${query.countryCode} does not support currency ${query.currencyCode}` },
    createBeneficiary: async (request) => {
      beneficiaries.push(request)
      return { providerBeneficiaryId: `ben_${request.reference}` }
    },
    exchangeRate: async ({ source, target }) => {
      const rate = testRates[`${source}${target}`]
      if (rate === undefined) throw new Error(`no rate for ${source}${target}`)
      return { rate }
    },
    submitPayment: async (request) => {
      const refusals = unavailable.get(request.paymentId) ?? 0
      if (refusals > 0) {
        unavailable.set(request.paymentId, refusals - 1)
        submissions.push({ ...request, answer: "unavailable" })
        throw new Error("test provider unavailable")
      }
      const outcome: PaymentOutcome =
        outcomes.get(request.paymentId) ??
        (failsAtProvider(request.instructedAmount)
          ? { status: "failed", providerPaymentId: `pp_${request.paymentId}`, reason: "test amount .13" }
          : { status: "completed", providerPaymentId: `pp_${request.paymentId}` })
      outcomes.set(request.paymentId, outcome)
      submissions.push({ ...request, answer: outcome.status })
      if (loseAnswer) {
        loseAnswer = false
        throw new Error("test provider: the caller died before the answer arrived")
      }
      return outcome
    },
    findPayment: async (paymentId) => outcomes.get(paymentId),
  }
}

/** The fake bank linker's banks: the default links a USD account, `test_bank_eur` a EUR one. */
export const testInstitutions = [
  { id: "test_bank", name: "Test Bank", currency: "USD" },
  { id: "test_bank_eur", name: "Test Euro Bank", currency: "EUR" },
] as const

/** A bank linker that records its links. */
export interface TestBankLinker extends BankLinkProvider {
  /** References linked, in order, repeats included. */
  readonly links: ReadonlyArray<BankAccountId>
}

/**
 * A bank linker that links one account per reference (the same one again for a repeated
 * reference), at {@link testInstitutions}; an unknown institution rejects.
 */
export const testBankLinker = (): TestBankLinker => {
  const links: BankAccountId[] = []
  const linked = new Map<BankAccountId, LinkedAccount>()
  return {
    links,
    institutions: async () => testInstitutions.map(({ id, name }) => ({ id, name })),
    link: async (request) => {
      links.push(request.reference)
      const earlier = linked.get(request.reference)
      if (earlier) return earlier
      const bank = testInstitutions.find((b) => b.id === (request.institutionId ?? "test_bank"))
      if (bank === undefined) throw new Error(`unknown test institution ${request.institutionId}`)
      const account: LinkedAccount = {
        connectionId: `conn_${request.reference}`,
        institutionName: bank.name,
        accountNumberMask: "****0000",
        routingNumber: "011000015",
        routingNumberType: "aba",
        currency: bank.currency,
        countryCode: "US",
        paymentMethod: "ach",
      }
      linked.set(request.reference, account)
      return account
    },
    unlink: async (connectionId) => {
      for (const [reference, account] of linked) if (account.connectionId === connectionId) linked.delete(reference)
    },
  }
}
