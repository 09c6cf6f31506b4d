import { randomBytes } from "node:crypto"
import { brandId, CompanyId, WorkspaceId } from "@payments-engine/core"
import { sql } from "kysely"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { graphileWorkerSchema, openPostgresStorage } from "../src/postgres.ts"
import { openTestPostgres } from "../src/testing/index.ts"
import { describeStorage } from "./storage-behaviour.ts"

const postgres = openTestPostgres()

describeStorage({
  name: `kysely storage on Postgres (${postgres.kind})`,
  source: postgres,
  multiProcess: postgres.kind === "server",
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

describe.runIf(postgres.kind === "server")("named statements on a Postgres server", () => {
  it("sets a connection's search_path once, not at the start of every transaction", async () => {
    const schema = `test_path_${randomBytes(5).toString("hex")}`
    const storage = await openPostgresStorage({
      connectionString: process.env.DATABASE_URL!,
      schema,
      maxConnections: 1,
    })
    const sent: Array<string> = []
    const query = pg.Client.prototype.query
    // Counts what the driver sends; every statement still goes to the server.
    pg.Client.prototype.query = function (this: pg.Client, ...args: Array<unknown>) {
      const [first] = args
      sent.push(typeof first === "string" ? first : String((first as { text?: unknown })?.text))
      return (query as (...args: Array<unknown>) => unknown).apply(this, args)
    } as typeof query
    try {
      for (let i = 0; i < 10; i += 1)
        await storage.transaction((tx) => tx.companies.find(WorkspaceId.make("ws_none"), CompanyId.make("cmp_none")))
    } finally {
      pg.Client.prototype.query = query
      for (const each of [schema, graphileWorkerSchema(schema)])
        await storage.db.schema.dropSchema(each).ifExists().cascade().execute()
      await storage.close()
    }
    expect(sent.filter((text) => text === "begin")).toHaveLength(10)
    expect(sent.filter((text) => text.startsWith("set search_path")).length).toBeLessThanOrEqual(1)
  })

  it("prepares the hot queries once per connection, and keeps them valid when a migration adds columns", async () => {
    const schema = `test_named_${randomBytes(5).toString("hex")}`
    const connectionString = process.env.DATABASE_URL!
    // One connection, so every query below runs on the connection that prepared the statements.
    const storage = await openPostgresStorage({ connectionString, schema, maxConnections: 1 })
    try {
      const noCompany = brandId("cmp", "cmp_none")
      const hotReads = () =>
        storage.transaction(async (tx) => ({
          company: await tx.companies.find(brandId("ws", "ws_none"), noCompany),
          quote: await tx.quotes.find(noCompany, brandId("qt", "qt_none")),
          payment: await tx.payments.findByIdempotencyKey(noCompany, "key"),
          profiles: await tx.paymentProfiles.findInUse(noCompany, [brandId("pp", "pp_a"), brandId("pp", "pp_b")]),
        }))
      const none = { company: undefined, quote: undefined, payment: undefined, profiles: [] }
      expect(await hotReads()).toEqual(none)
      const prepared = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(storage.db)
      expect(prepared.rows.filter((row) => row.name.startsWith("pe_")).length).toBeGreaterThanOrEqual(4)

      for (const table of ["companies", "quotes", "payments", "payment_profiles"]) {
        await sql`alter table ${sql.table(table)} add column added_later text`.execute(storage.db)
      }
      expect(await hotReads()).toEqual(none)
    } finally {
      for (const each of [schema, graphileWorkerSchema(schema)])
        await storage.db.schema.dropSchema(each).ifExists().cascade().execute()
      await storage.close()
    }
  })
})
