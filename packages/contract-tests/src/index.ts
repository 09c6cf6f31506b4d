export { type ContractTestId, contractTestIds, isContractTestId } from "./contract-test-ids.ts"
export { defaultNumRuns } from "./model-run.ts"
export type { ContractReader, ContractSuiteOptions, StampedResource, StoredStamps } from "./options.ts"
export {
  type ContractTestOptions,
  type ContractTestOutcome,
  runContractSuite,
  runContractTest,
} from "./run-contract-suite.ts"
export { counterIds, plainHasher, type TestClock, testClock, testServerSecret } from "./test-ports.ts"
