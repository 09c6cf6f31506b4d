import { runProviderContractSuite } from "@payments-engine/contract-tests"
import { sandboxProviderFixtures, sandboxUnderTest } from "./sandbox-provider-fixtures.ts"

runProviderContractSuite({
  name: "sandbox provider and bank linker",
  factory: async () => sandboxUnderTest(),
  fixtures: sandboxProviderFixtures,
})
