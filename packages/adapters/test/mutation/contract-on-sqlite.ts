import { runContractSuite } from "@payments-engine/contract-tests"
import { kyselyJobTable } from "../../src/kysely.ts"
import { openTestSqlite } from "../../src/testing/index.ts"
import { kyselyContractReader } from "../kysely-contract-reader.ts"

/*
 * The mutation run's test command (`npm run mutation`, tools/mutation): the contract suite on
 * in-memory SQLite, with a fixed seed so that whether a mutant is killed never depends on a
 * random run. Not a `*.test.ts`: the suite itself runs it in `contract.test.ts`.
 */
const memory = openTestSqlite()

runContractSuite({
  name: "kysely/sqlite-memory (mutation)",
  factory: memory.factory,
  reader: kyselyContractReader,
  jobTable: (storage) => kyselyJobTable(storage.db),
  teardown: memory.close,
  fastCheck: { seed: 42 },
})
