import type { Storage } from "@payments-engine/core"
import { afterAll, afterEach, beforeAll, describe, it } from "vitest"
import { openHarness } from "./contract-harness.ts"
import type { ContractScenario } from "./contract-scenario.ts"
import { contractScenarios, scenarioGroups } from "./contract-scenarios.ts"
import { type ContractTestId, contractTestIds, isContractTestId } from "./contract-test-ids.ts"
import type { ContractSuiteOptions } from "./options.ts"

const defaultTimeoutMs = 30_000
const hookTimeoutMs = 120_000

/** How one test ended: passed, or not run because the storage lacks a capability it needs. */
export type ContractTestOutcome = { readonly ran: true } | { readonly ran: false; readonly reason: string }

const checkedSkip = (skip: ReadonlyArray<string>): ReadonlySet<ContractTestId> => {
  const unknown = skip.filter((id) => !isContractTestId(id))
  if (unknown.length > 0) {
    throw new Error(
      `runContractSuite: unknown test ids in skip: ${unknown.join(", ")}. Known: ${contractTestIds.join(", ")}`,
    )
  }
  return new Set(skip as ReadonlyArray<ContractTestId>)
}

/** What running one test takes: the storage factory, its reader, its job table (if any) and the fast-check settings. */
export type ContractTestOptions<S extends Storage = Storage> = Pick<
  ContractSuiteOptions<S>,
  "factory" | "reader" | "jobTable" | "fastCheck"
>

const runScenario = async <S extends Storage>(
  scenario: ContractScenario,
  options: ContractTestOptions<S>,
): Promise<ContractTestOutcome> => {
  const storage = await options.factory()
  try {
    const required = scenario.requires
    if (required !== undefined && "capability" in required && !storage.capabilities[required.capability]) {
      return { ran: false, reason: `storage.capabilities.${required.capability} is false: ${required.because}` }
    }
    if (required !== undefined && "method" in required && storage[required.method] === undefined) {
      return { ran: false, reason: `storage.${required.method} is absent: ${required.because}` }
    }
    if (required !== undefined && "option" in required && options[required.option] === undefined) {
      return { ran: false, reason: `no ${required.option} option was given: ${required.because}` }
    }
    const harness = openHarness(storage, options.reader(storage), options.jobTable?.(storage))
    await scenario.run(harness, { fastCheck: options.fastCheck })
    return { ran: true }
  } finally {
    await storage.close()
  }
}

/**
 * Runs one test of the suite outside vitest's registration: opens a storage with the factory,
 * runs the test, closes the storage. Resolves when it passes (or does not apply to the
 * storage's capabilities), rejects with the assertion error when it fails. Useful to check that
 * the suite catches a fault you plant in an adapter.
 *
 * @example
 * declare const brokenFactory: () => Promise<Storage>, reader: (storage: Storage) => ContractReader
 * await expect(runContractTest("entities.one-per-company", { factory: brokenFactory, reader })).rejects.toThrow()
 */
export const runContractTest = <S extends Storage>(
  id: ContractTestId,
  options: ContractTestOptions<S>,
): Promise<ContractTestOutcome> => {
  const scenario = contractScenarios.find((s) => s.id === id)
  if (scenario === undefined) return Promise.reject(new Error(`unknown contract test id ${id}`))
  return runScenario(scenario, options)
}

/**
 * Registers the storage contract suite with vitest. Call it at the top level of a test file; it
 * adds one `describe` named `options.name` with a test per {@link ContractTestId}, each on a
 * fresh storage from `options.factory`, which it closes afterwards.
 *
 * @example
 * import { runContractSuite } from "@payments-engine/contract-tests"
 * declare const createMyStorage: () => Storage, myContractReader: (storage: Storage) => ContractReader // ./my-storage.ts
 *
 * runContractSuite({ name: "my-storage", factory: async () => createMyStorage(), reader: myContractReader })
 */
export const runContractSuite = <S extends Storage>(options: ContractSuiteOptions<S>): void => {
  const skip = checkedSkip(options.skip ?? [])
  describe(options.name, () => {
    const { setup, reset, teardown } = options
    if (setup) beforeAll(() => setup(), hookTimeoutMs)
    if (reset) afterEach(() => reset(), hookTimeoutMs)
    if (teardown) afterAll(() => teardown(), hookTimeoutMs)
    for (const group of scenarioGroups) {
      describe(group.title, () => {
        for (const scenario of group.scenarios) {
          const title = `${scenario.id}: ${scenario.title}`
          if (skip.has(scenario.id)) {
            it.skip(title, () => {})
            continue
          }
          it(title, { timeout: scenario.timeout ?? defaultTimeoutMs }, async (context) => {
            const outcome = await runScenario(scenario, options)
            if (!outcome.ran) context.skip(outcome.reason)
          })
        }
      })
    }
  })
}
