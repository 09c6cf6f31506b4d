import type { JobTable, Storage } from "@payments-engine/core"
import type { ContractReader } from "./contract-reader.ts"
import type { ContractTestId } from "./contract-test-ids.ts"

export type { ContractReader, StampedResource, StoredStamps } from "./contract-reader.ts"
export type { ContractTestId } from "./contract-test-ids.ts"

/**
 * What an adapter author hands to {@link runContractSuite}. `S` is the adapter's own storage
 * type, so that `reader` can reach the database behind it.
 */
export interface ContractSuiteOptions<S extends Storage = Storage> {
  /** Title of the suite's `describe` block, e.g. "kysely/sqlite". */
  readonly name: string
  /**
   * A fresh, migrated storage. Called once per test (many times); the suite closes each one it
   * gets. Rows of other tests may be present: the suite works in fresh workspaces, but a fully
   * isolated storage (a new database, or `reset` wiping it) keeps failures easy to read.
   */
  readonly factory: () => Promise<S>
  /**
   * The reads that verify a write, on the database of a storage from `factory`: see
   * {@link ContractReader}. They must not go through the storage's repositories.
   *
   * @example
   * declare const factory: () => Promise<Storage & { connection: MyConnection }>, myDatabaseReader: (c: MyConnection) => ContractReader
   * declare type MyConnection = { query(sql: string): Promise<unknown[]> }
   * runContractSuite({ name: "my-storage", factory, reader: (storage) => myDatabaseReader(storage.connection) })
   */
  readonly reader: (storage: S) => ContractReader
  /**
   * The job table your storage hands the embedded runner of `@payments-engine/adapters`, if it
   * runs its jobs there (`embeddedJobQueue(table)`): the suite then checks the table itself
   * (`job-table.*`: which due jobs come first, when the runner wakes next, which clock stamps a
   * run). A storage whose jobs run elsewhere (graphile-worker, a queue service) leaves it out,
   * and those tests report as skipped.
   *
   * @example
   * declare const factory: () => Promise<KyselyStorage>, reader: (storage: KyselyStorage) => ContractReader
   * runContractSuite({ name: "kysely/sqlite", factory, reader, jobTable: (storage) => kyselyJobTable(storage.db) })
   */
  readonly jobTable?: (storage: S) => JobTable
  /** Runs once before the suite (connect a server, start a container). */
  readonly setup?: () => Promise<void>
  /** Runs after each test (wipe shared state, if the factory does not isolate). */
  readonly reset?: () => Promise<void>
  /** Runs once after the suite. */
  readonly teardown?: () => Promise<void>
  /** Test ids not to run. Unknown ids are refused. Prefer declaring `storage.capabilities`. */
  readonly skip?: ReadonlyArray<ContractTestId>
  /**
   * Forwarded to `fc.assert` for the property-based runs. A failure prints `seed` and `path`
   * (and the commands' `replayPath`); pass them here to replay exactly that run.
   */
  readonly fastCheck?: {
    /** Runs per property; 25 by default. */
    readonly numRuns?: number
    readonly seed?: number
    readonly path?: string
    /** The `replayPath` printed with a failing command sequence. */
    readonly replayPath?: string
  }
}
