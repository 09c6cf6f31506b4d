import { openTestSqlite } from "../src/testing/index.ts"
import { describeStorage } from "./storage-behaviour.ts"

describeStorage({
  name: "kysely storage on SQLite in memory",
  source: openTestSqlite(),
  multiProcess: false,
  concurrentTransactions: false,
})

describeStorage({
  name: "kysely storage on a SQLite file",
  source: openTestSqlite({ file: true }),
  multiProcess: false,
  concurrentTransactions: false,
})
