import type { Storage } from "@payments-engine/core"

/** Ids of the suite's tests, for `skip`. Prefer declaring `storage.capabilities` over skipping. */
export type ContractTestId = string

/** What an adapter author hands to {@link runContractSuite}. */
export interface ContractSuiteOptions {
  /** Title of the suite's `describe` block, e.g. "kysely/sqlite". */
  readonly name: string
  /** A fresh, isolated, migrated storage. Called many times; each result is closed by the suite. */
  readonly factory: () => Promise<Storage>
  /** Runs once before the suite (connect a server, start a container). */
  readonly setup?: () => Promise<void>
  /** Runs after each test (wipe shared state, if the factory does not isolate). */
  readonly reset?: () => Promise<void>
  /** Runs once after the suite. */
  readonly teardown?: () => Promise<void>
  /** Test ids not to run. */
  readonly skip?: ReadonlyArray<ContractTestId>
  /** Forwarded to `fc.assert` for the property-based runs. */
  readonly fastCheck?: { readonly numRuns?: number; readonly seed?: number; readonly path?: string }
}
