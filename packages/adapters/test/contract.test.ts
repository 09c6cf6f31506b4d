import { runContractSuite } from "@payments-engine/contract-tests"
import { openTestPostgres, openTestSqlite } from "../src/testing/index.ts"

const memory = openTestSqlite()
const file = openTestSqlite({ file: true })
const postgres = openTestPostgres()

runContractSuite({ name: "kysely/sqlite-memory", factory: memory.factory, teardown: memory.close })
runContractSuite({ name: "kysely/sqlite-file", factory: file.factory, teardown: file.close })
runContractSuite({ name: `kysely/postgres (${postgres.kind})`, factory: postgres.factory, teardown: postgres.close })
