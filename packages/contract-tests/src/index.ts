export { type ContractTestId, contractTestIds, isContractTestId } from "./contract-test-ids.ts"
export { defaultNumRuns } from "./model-run.ts"
export type { ContractReader, ContractSuiteOptions, StampedResource, StoredStamps } from "./options.ts"
export {
  type FaultableCall,
  isProviderContractTestId,
  type PaymentAmounts,
  type ProviderContractSuiteOptions,
  type ProviderContractTestId,
  type ProviderFixtures,
  type ProviderUnderTest,
  providerContractTestIds,
} from "./provider-options.ts"
export { maxRateDecimals } from "./provider-scenarios.ts"
export {
  type ContractTestOptions,
  type ContractTestOutcome,
  runContractSuite,
  runContractTest,
} from "./run-contract-suite.ts"
export {
  type ProviderContractTestOptions,
  runProviderContractSuite,
  runProviderContractTest,
} from "./run-provider-contract-suite.ts"
export { counterIds, plainHasher, type TestClock, testClock, testServerSecret } from "./test-ports.ts"
