import type { StorageCapabilities } from "@payments-engine/core"
import type { Harness } from "./contract-harness.ts"
import type { ContractTestId } from "./contract-test-ids.ts"
import type { ContractSuiteOptions } from "./options.ts"

/** One test of the suite: an id to skip it by, a title, and the steps. */
export interface ContractScenario {
  readonly id: ContractTestId
  /** What a passing adapter does, as the test title shows it after the id. */
  readonly title: string
  /**
   * Runs only on a storage that declares this, or has this optional method, or when the suite was
   * given this option; otherwise the test reports as skipped.
   */
  readonly requires?:
    | { readonly capability: keyof StorageCapabilities; readonly because: string }
    | { readonly method: "read"; readonly because: string }
    | { readonly option: "jobTable"; readonly because: string }
  /** Milliseconds; 30 s unless the scenario needs longer. */
  readonly timeout?: number
  readonly run: (harness: Harness, options: Pick<ContractSuiteOptions, "fastCheck">) => Promise<void>
}

/** Scenarios of one resource, registered under one `describe`. */
export interface ScenarioGroup {
  readonly title: string
  readonly scenarios: ReadonlyArray<ContractScenario>
}
