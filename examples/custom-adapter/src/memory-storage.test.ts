import { runContractSuite } from "@payments-engine/contract-tests"
import { createMemoryStorage } from "./memory-storage.ts"

runContractSuite({
  name: "memory",
  factory: async () => createMemoryStorage(),
})
