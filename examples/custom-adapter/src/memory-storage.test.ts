import { runContractSuite } from "@payments-engine/contract-tests"
import { memoryContractReader } from "./memory-contract-reader.ts"
import { createMemoryStorage } from "./memory-storage.ts"

runContractSuite({
  name: "memory",
  factory: async () => createMemoryStorage(),
  reader: memoryContractReader,
  jobTable: (storage) => storage.jobTable,
})
