import { describe, expect, it } from "vitest"
import { providerContractTestIds } from "./provider-options.ts"
import { providerScenarios } from "./provider-scenarios.ts"
import { runProviderContractSuite, runProviderContractTest } from "./run-provider-contract-suite.ts"

const unused = () => Promise.reject(new Error("unused"))
const fixtures = {
  beneficiary: { query: { countryCode: "US", currencyCode: "USD", entityType: "COMPANY" as const }, details: {} },
  rates: [],
  completes: [],
}

describe("the provider contract suite", () => {
  it("has exactly one scenario per test id, in the order of the ids", () => {
    expect(providerScenarios.map((s) => s.id)).toEqual([...providerContractTestIds])
  })

  it("refuses unknown ids in skip, so a typo does not silently run a test", () => {
    expect(() =>
      runProviderContractSuite({ name: "typo", factory: unused, fixtures, skip: ["payments.idempotnt" as never] }),
    ).toThrow(/unknown test ids in skip: payments.idempotnt/)
    return expect(runProviderContractTest("nope" as never, { factory: unused, fixtures })).rejects.toThrow(
      /unknown provider contract test id/,
    )
  })

  it("reports a test whose fixture is absent as not run, with the reason", async () => {
    await expect(
      runProviderContractTest("payments.decline-is-an-outcome", { factory: unused, fixtures }),
    ).resolves.toEqual({
      ran: false,
      reason: "fixtures.declines is absent: the provider must be able to decline a payment in test",
    })
  })
})
