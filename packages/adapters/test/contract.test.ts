import { runContractSuite } from "@payments-engine/contract-tests"
import { openTestPostgres, openTestSqlite } from "../src/testing/index.ts"
import { kyselyContractReader } from "./kysely-contract-reader.ts"

const memory = openTestSqlite()
const file = openTestSqlite({ file: true })
const postgres = openTestPostgres()
const reader = kyselyContractReader

runContractSuite({ name: "kysely/sqlite-memory", factory: memory.factory, reader, teardown: memory.close })
runContractSuite({ name: "kysely/sqlite-file", factory: file.factory, reader, teardown: file.close })
runContractSuite({
  name: `kysely/postgres (${postgres.kind})`,
  factory: postgres.factory,
  reader,
  // PGlite starts on the first storage opened: in the setup hook's time, not the first test's.
  setup: async () => (await postgres.factory()).close(),
  teardown: postgres.close,
})
