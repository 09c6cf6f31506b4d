import { runContractSuite } from "@payments-engine/contract-tests"
import { type KyselyStorage, kyselyJobTable } from "../src/kysely.ts"
import { openTestPostgres, openTestSqlite } from "../src/testing/index.ts"
import { kyselyContractReader } from "./kysely-contract-reader.ts"

const memory = openTestSqlite()
const file = openTestSqlite({ file: true })
// A schema of a closed storage is emptied and handed to the next test instead of migrating a new one.
const postgres = openTestPostgres({ recycleSchemas: process.env.CONTRACT_FRESH_SCHEMAS === undefined })
const reader = kyselyContractReader
/** SQLite and PGlite run their jobs on the embedded runner, over the storage's `jobs` table. */
const jobTable = (storage: KyselyStorage) => kyselyJobTable(storage.db)

runContractSuite({ name: "kysely/sqlite-memory", factory: memory.factory, reader, jobTable, teardown: memory.close })
runContractSuite({ name: "kysely/sqlite-file", factory: file.factory, reader, jobTable, teardown: file.close })
runContractSuite({
  name: `kysely/postgres (${postgres.kind})`,
  factory: postgres.factory,
  reader,
  // A Postgres server runs jobs on graphile-worker, whose tables are its own: no job table to check.
  ...(postgres.kind === "pglite" ? { jobTable } : {}),
  // PGlite starts on the first storage opened: in the setup hook's time, not the first test's.
  setup: async () => (await postgres.factory()).close(),
  teardown: postgres.close,
})
