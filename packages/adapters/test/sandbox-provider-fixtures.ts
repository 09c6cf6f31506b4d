import type { ProviderFixtures, ProviderUnderTest } from "@payments-engine/contract-tests"
import { createSandboxBankLinker } from "../src/bank-link/sandbox-bank-linker.ts"
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
  sandboxBeneficiaryDetails,
} from "../src/sandbox/index.ts"

/** What the sandbox pays and quotes, for the provider contract suite. */
export const sandboxProviderFixtures: ProviderFixtures = {
  beneficiary: {
    query: { countryCode: "US", currencyCode: "USD", entityType: "COMPANY" },
    details: sandboxBeneficiaryDetails("US", "ACH"),
  },
  rates: [
    { source: "USD", target: "EUR", about: "0.92" },
    { source: "EUR", target: "GBP", about: "0.86" },
    { source: "JPY", target: "BHD", about: "0.0025" },
  ],
  completes: [
    {
      sourceAmount: "100.00",
      sourceCurrency: "USD",
      targetAmount: "92.00",
      targetCurrency: "EUR",
      instructedAmount: "92.00",
      instructedCurrency: "EUR",
      paymentMethod: "ach",
    },
    {
      sourceAmount: "14950",
      sourceCurrency: "JPY",
      targetAmount: "37.600",
      targetCurrency: "BHD",
      instructedAmount: "14950",
      instructedCurrency: "JPY",
      paymentMethod: "ach",
    },
  ],
  declines: {
    sourceAmount: "10.13",
    sourceCurrency: "USD",
    targetAmount: "10.13",
    targetCurrency: "USD",
    instructedAmount: "10.13",
    instructedCurrency: "USD",
    paymentMethod: "ach",
  },
}

/** The sandbox providers under test, with the failure injection behind the suite's fault hooks. */
export const sandboxUnderTest = (
  paymentProvider: SandboxPaymentProvider = createSandboxPaymentProvider(),
): ProviderUnderTest => ({
  paymentProvider,
  bankLinker: createSandboxBankLinker(),
  loseNextAnswer: (method) => paymentProvider.failNext(method, new Error(`${method}: answer lost`), "after"),
  refuseNextCall: (method) => paymentProvider.failNext(method, new Error(`${method}: connection refused`), "before"),
})
