import { describe, expect, it } from "vitest"
import { openPostgresStorage } from "../src/index.ts"
import { openTestPostgres } from "../src/testing/index.ts"
import { describeStorage } from "./storage-behaviour.ts"

const postgres = openTestPostgres()

describeStorage({
  name: `kysely storage on Postgres (${postgres.kind})`,
  source: postgres,
  multiProcess: true,
  concurrentTransactions: postgres.kind === "server",
})

describe("openPostgresStorage", () => {
  it("rejects, naming the cause, when the server cannot be reached", async () => {
    // Port 1 on the loopback interface refuses connections at once.
    await expect(
      openPostgresStorage({ connectionString: "postgres://postgres@127.0.0.1:1/test", connectionTimeoutMs: 5000 }),
    ).rejects.toThrow(/ECONNREFUSED|connect/)
  })

  it("refuses a schema name Postgres cannot hold", async () => {
    await expect(
      openPostgresStorage({ connectionString: "postgres://postgres@127.0.0.1:1/test", schema: "x".repeat(64) }),
    ).rejects.toThrow("invalid Postgres identifier")
  })
})

describe("openTestPostgres", () => {
  it("refuses a DATABASE_URL that is not a Postgres URL instead of silently using PGlite", () => {
    expect(() => openTestPostgres({ databaseUrl: "sqlite::memory:" })).toThrow("not a postgres:// URL")
  })

  it("fails loudly, never skips, when the DATABASE_URL server is unreachable", async () => {
    const unreachable = openTestPostgres({ databaseUrl: "postgres://postgres@127.0.0.1:1/test" })
    expect(unreachable.kind).toBe("server")
    await expect(unreachable.factory()).rejects.toThrow("openTestPostgres: cannot open a storage on DATABASE_URL")
    await unreachable.close()
  })
})
