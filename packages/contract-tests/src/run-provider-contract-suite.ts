import { afterAll, beforeAll, describe, it } from "vitest"
import {
  isProviderContractTestId,
  type ProviderContractSuiteOptions,
  type ProviderContractTestId,
  providerContractTestIds,
} from "./provider-options.ts"
import { type ProviderScenario, providerScenarios } from "./provider-scenarios.ts"
import type { ContractTestOutcome } from "./run-contract-suite.ts"

const timeoutMs = 30_000

/** What running one provider test takes: the factory and the fixtures. */
export type ProviderContractTestOptions = Pick<ProviderContractSuiteOptions, "factory" | "fixtures">

const runScenario = async (
  scenario: ProviderScenario,
  options: ProviderContractTestOptions,
): Promise<ContractTestOutcome> => {
  const required = scenario.requires
  if (required !== undefined && "fixture" in required && options.fixtures[required.fixture] === undefined) {
    return { ran: false, reason: `fixtures.${required.fixture} is absent: ${required.because}` }
  }
  const provider = await options.factory()
  try {
    if (required !== undefined && "hook" in required && provider[required.hook] === undefined) {
      return { ran: false, reason: `${required.hook} is absent: ${required.because}` }
    }
    if (required !== undefined && "port" in required && provider[required.port] === undefined) {
      return { ran: false, reason: `${required.port} is absent: ${required.because}` }
    }
    await scenario.run(provider, options.fixtures)
    return { ran: true }
  } finally {
    await provider.close?.()
  }
}

/**
 * Runs one test of the provider suite outside vitest's registration, on a provider from the
 * factory. Resolves when it passes (or does not apply), rejects with the assertion error when it
 * fails: to see a fault you plant in an adapter caught.
 *
 * @example
 * declare const brokenFactory: () => Promise<ProviderUnderTest>, fixtures: ProviderFixtures
 * await expect(runProviderContractTest("payments.idempotent", { factory: brokenFactory, fixtures })).rejects.toThrow()
 */
export const runProviderContractTest = (
  id: ProviderContractTestId,
  options: ProviderContractTestOptions,
): Promise<ContractTestOutcome> => {
  const scenario = providerScenarios.find((s) => s.id === id)
  if (scenario === undefined) return Promise.reject(new Error(`unknown provider contract test id ${id}`))
  return runScenario(scenario, options)
}

/**
 * Registers the provider contract suite with vitest: what the engine relies on from a
 * `PaymentProvider` and a `BankLinkProvider`. Call it at the top level of a test file; it adds one
 * `describe` named `options.name` with a test per {@link ProviderContractTestId}, each on a fresh
 * provider from `options.factory`.
 *
 * @example
 * declare const createMyProvider: () => PaymentProvider, fixtures: ProviderFixtures
 * runProviderContractSuite({ name: "my-provider", factory: async () => ({ paymentProvider: createMyProvider() }), fixtures })
 */
export const runProviderContractSuite = (options: ProviderContractSuiteOptions): void => {
  const unknown = (options.skip ?? []).filter((id) => !isProviderContractTestId(id))
  if (unknown.length > 0) {
    throw new Error(
      `runProviderContractSuite: unknown test ids in skip: ${unknown.join(", ")}. Known: ${providerContractTestIds.join(", ")}`,
    )
  }
  const skip = new Set(options.skip)
  describe(options.name, () => {
    const { setup, teardown } = options
    if (setup) beforeAll(() => setup(), timeoutMs)
    if (teardown) afterAll(() => teardown(), timeoutMs)
    for (const scenario of providerScenarios) {
      const title = `${scenario.id}: ${scenario.title}`
      if (skip.has(scenario.id)) {
        it.skip(title, () => {})
        continue
      }
      it(title, { timeout: timeoutMs }, async (context) => {
        const outcome = await runScenario(scenario, options)
        if (!outcome.ran) context.skip(outcome.reason)
      })
    }
  })
}
