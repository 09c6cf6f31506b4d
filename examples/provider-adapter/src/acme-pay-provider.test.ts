import { type ProviderFixtures, runProviderContractSuite } from "@payments-engine/contract-tests"
import { describe, expect, it } from "vitest"
import { createAcmePayDouble } from "./acme-pay-double.ts"
import { createAcmePayProvider, toMinorUnits } from "./acme-pay-provider.ts"

const amounts = (source: string, sourceCurrency: string, target: string, targetCurrency: string) => ({
  sourceAmount: source,
  sourceCurrency,
  targetAmount: target,
  targetCurrency,
  instructedAmount: source,
  instructedCurrency: sourceCurrency,
  paymentMethod: "ach",
})

const fixtures: ProviderFixtures = {
  beneficiary: {
    query: { countryCode: "US", currencyCode: "USD", entityType: "COMPANY" },
    details: {
      bank_details: {
        account_name: "Jane Supplier Ltd",
        account_number: "123456789",
        account_routing_value1: "021000021",
      },
    },
  },
  rates: [
    { source: "USD", target: "EUR", about: "0.92" },
    { source: "JPY", target: "BHD", about: "0.0025" },
  ],
  completes: [amounts("100.00", "USD", "92.00", "EUR"), amounts("14950", "JPY", "37.600", "BHD")],
  declines: amounts("10.13", "USD", "10.13", "USD"),
}

runProviderContractSuite({
  name: "Acme Pay adapter on its recorded-response double",
  factory: async () => {
    const double = createAcmePayDouble()
    return {
      paymentProvider: createAcmePayProvider(double.transport),
      loseNextAnswer: (method) => double.loseNext(method === "submitPayment" ? "POST /transfers" : "POST /recipients"),
      refuseNextCall: (method) =>
        double.refuseNext(method === "submitPayment" ? "POST /transfers" : "POST /recipients"),
    }
  },
  fixtures,
})

describe("amounts sent to Acme Pay", () => {
  it("are the minor units of the currency, by string", () => {
    expect([toMinorUnits("10.13", "USD"), toMinorUnits("1013", "JPY"), toMinorUnits("10.130", "BHD")]).toEqual([
      "1013",
      "1013",
      "10130",
    ])
    expect(() => toMinorUnits("10.1", "USD")).toThrow(/not in minor units/)
  })
})
