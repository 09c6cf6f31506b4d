import type {
  BankLinkProvider,
  PaymentOutcome,
  PaymentProvider,
  PaymentSubmission,
  RequirementField,
} from "@payments-engine/core"

const field = (path: string, pattern: string, fixed: string | null = null): RequirementField => ({
  enabled: true,
  path,
  required: true,
  field: { key: path.split(".").at(-1)!, label: path, type: "INPUT", options: [], default: fixed, refresh: false },
  rule: { type: "REGEX", pattern, minimum_length: null, maximum_length: null },
})

/** The one bank account the fake provider accepts the shape of: US, USD, ACH. */
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

/** A payment provider with fixed answers that records what it was asked to pay. */
export interface TestPaymentProvider extends PaymentProvider {
  /** Every payment submitted, in order, repeats included. */
  readonly submissions: ReadonlyArray<PaymentSubmission>
}

/**
 * A tiny deterministic payment provider: one requirements schema (US/USD/ACH), rates of 1 USD =
 * 0.5 EUR, payments that fail when the instructed amount ends in .13, answered once per id.
 */
export const testPaymentProvider = (): TestPaymentProvider => {
  const submissions: PaymentSubmission[] = []
  const outcomes = new Map<string, PaymentOutcome>()
  return {
    submissions,
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
                field("bank_details.account_name", "^.+$"),
                field("bank_details.account_number", "^[0-9]{4,17}$"),
                field("bank_details.account_routing_type1", "^aba$", "aba"),
                field("bank_details.account_routing_value1", "^[0-9]{9}$"),
              ],
              payment_method: "ach",
            },
          }
        : { ok: false, message: `Bank country ${query.countryCode} does not support currency ${query.currencyCode}` },
    createBeneficiary: async (request) => ({ providerBeneficiaryId: `ben_${request.reference}` }),
    exchangeRate: async ({ source, target }) => {
      const perUsd: Record<string, string> = { USD: "1", EUR: "0.5" }
      if (perUsd[source] === undefined || perUsd[target] === undefined)
        throw new Error(`no rate for ${source}${target}`)
      return { rate: source === "USD" ? `${perUsd[target]}` : "2" }
    },
    submitPayment: async (request) => {
      submissions.push(request)
      const earlier = outcomes.get(request.paymentId)
      if (earlier) return earlier
      const outcome: PaymentOutcome = request.instructedAmount.endsWith(".13")
        ? { status: "failed", providerPaymentId: `pp_${request.paymentId}`, reason: "test amount .13" }
        : { status: "completed", providerPaymentId: `pp_${request.paymentId}` }
      outcomes.set(request.paymentId, outcome)
      return outcome
    },
  }
}

/** A bank linker that links one test account per reference. */
export const testBankLinker = (): BankLinkProvider => ({
  institutions: async () => [{ id: "test_bank", name: "Test Bank" }],
  link: async (request) => ({
    connectionId: `conn_${request.reference}`,
    institutionName: "Test Bank",
    accountNumberMask: "****0000",
    routingNumber: "011000015",
    routingNumberType: "aba",
    currency: "USD",
    countryCode: "US",
    paymentMethod: "ach",
  }),
  unlink: async () => {},
})
