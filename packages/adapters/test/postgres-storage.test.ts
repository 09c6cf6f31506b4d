import { randomBytes } from "node:crypto"
import { brandId, CompanyId, type CompanyRecord, WorkspaceId } from "@payments-engine/core"
import { sql } from "kysely"
import pg from "pg"
import { describe, expect, it } from "vitest"
import type { KyselyStorage } from "../src/kysely.ts"
import { graphileWorkerSchema, openPostgresStorage } from "../src/postgres.ts"
import { openTestPostgres, rawQuery } from "../src/testing/index.ts"
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

describe.runIf(postgres.kind === "server")("openTestPostgres({ recycleSchemas })", () => {
  const at = "2025-03-01T12:00:00.000Z"
  /** Rows of every kind the emptying must order: a feature refers to its entity, a job is graphile-worker's. */
  const fill = async (storage: KyselyStorage, tag: string) => {
    const ws = brandId("ws", `ws_${tag}`)
    const company = brandId("cmp", `cmp_${tag}`)
    const entity = brandId("ent", `ent_${tag}`)
    await storage.transaction(async (tx) => {
      await tx.workspaces.insertOrGet({ id: ws, name: `recycled-${tag}`, created_at: at })
      await tx.companies.insert({
        id: company,
        workspace_id: ws,
        name: "C",
        country: "US",
        default_currency: "USD",
        role: "api_client",
        created_at: at,
        updated_at: at,
        deleted_at: null,
      })
      await tx.entities.insertIfNoneActive({
        id: entity,
        company_id: company,
        name: "E",
        country_alpha2: "US",
        payment_integration_active: false,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      })
      await tx.features.insertOrGet({
        application_id: brandId("app", `app_${tag}`),
        workspace_id: ws,
        company_id: company,
        entity_id: entity,
        feature_identifier: "multi_currency_account",
        status: "CREATED",
        machine_version: 1,
        created_at: at,
        updated_at: at,
      })
      await tx.jobs.enqueue({
        id: brandId("job", `job_${tag}`),
        kind: "purge_idempotency",
        payload: "{}",
        run_at: at,
        key: null,
        max_attempts: 1,
        created_at: at,
        workspace_id: null,
      })
    })
  }
  const rowsOf = async (storage: KyselyStorage) => {
    const schema = (await rawQuery<{ schema: string }>(storage, "select current_schema() as schema"))[0]!.schema
    const counts = await rawQuery<{ workspaces: string; features: string; jobs: string }>(
      storage,
      `select (select count(*) from workspaces) as workspaces, (select count(*) from features) as features,
        (select count(*) from ${graphileWorkerSchema(schema)}._private_jobs) as jobs`,
    )
    return { schema, counts: counts[0] }
  }

  it("hands a closed storage's schema to the next factory call with every row gone, and never a schema still open", async () => {
    const source = openTestPostgres({ recycleSchemas: true })
    try {
      const first = await source.factory()
      await fill(first, `r1_${randomBytes(4).toString("hex")}`)
      const before = await rowsOf(first)
      expect(before.counts).toEqual({ workspaces: "1", features: "1", jobs: "1" })
      // Open beside it (a restart): the schema is not free while either is open.
      const again = await source.reopen(first)
      await first.close()
      const second = await source.factory()
      expect((await rowsOf(second)).schema).not.toBe(before.schema)
      await again.close()
      const third = await source.factory()
      expect(await rowsOf(third)).toEqual({
        schema: before.schema,
        counts: { workspaces: "0", features: "0", jobs: "0" },
      })
      // Emptied, still migrated: it takes the same rows again.
      await fill(third, `r3_${randomBytes(4).toString("hex")}`)
      // Closed and opened again: in use, so not handed out.
      await third.close()
      const reopened = await source.reopen(third)
      const fourth = await source.factory()
      expect((await rowsOf(fourth)).schema).not.toBe(before.schema)
      await Promise.all([reopened.close(), fourth.close(), second.close()])
    } finally {
      await source.close()
    }
  })
})

describe.runIf(postgres.kind === "server")("named statements on a Postgres server", () => {
  /** A storage on a schema of its own over one connection, its schemas dropped after `work`. */
  const onOwnSchema = async (prefix: string, work: (storage: KyselyStorage) => Promise<void>) => {
    const schema = `${prefix}_${randomBytes(5).toString("hex")}`
    const storage = await openPostgresStorage({
      connectionString: process.env.DATABASE_URL!,
      schema,
      maxConnections: 1,
    })
    try {
      await work(storage)
    } finally {
      for (const each of [schema, graphileWorkerSchema(schema)])
        await storage.db.schema.dropSchema(each).ifExists().cascade().execute()
      await storage.close()
    }
  }

  /**
   * Watches what pg's clients send until `work` settles: each call of a client's `query` is one
   * round trip, and every query still goes to the server. The texts sent, in order.
   */
  const queriesSent = async (work: () => Promise<unknown>): Promise<ReadonlyArray<string>> => {
    const sent: Array<string> = []
    const query = pg.Client.prototype.query
    pg.Client.prototype.query = function (this: pg.Client, ...args: Array<unknown>) {
      const [first] = args
      sent.push(typeof first === "string" ? first : String((first as { text?: unknown })?.text))
      return (query as (...args: Array<unknown>) => unknown).apply(this, args)
    } as typeof query
    try {
      await work()
    } finally {
      pg.Client.prototype.query = query
    }
    return sent
  }

  it("sets a connection's search_path once, not at the start of every transaction", () =>
    onOwnSchema("test_path", async (storage) => {
      const sent = await queriesSent(async () => {
        for (let i = 0; i < 10; i += 1)
          await storage.transaction((tx) => tx.companies.find(WorkspaceId.make("ws_none"), CompanyId.make("cmp_none")))
      })
      expect(sent.filter((text) => text === "commit")).toHaveLength(10)
      expect(sent.filter((text) => text.startsWith("set search_path")).length).toBeLessThanOrEqual(1)
    }))

  it("sends a transaction's BEGIN in its first statement's round trip, still a transaction: a failed one leaves nothing; one that runs nothing sends nothing", () =>
    onOwnSchema("test_begin", async (storage) => {
      const workspace = WorkspaceId.make("ws_begin")
      const company = (id: string): CompanyRecord => ({
        id: CompanyId.make(id),
        workspace_id: workspace,
        name: "Begin Co",
        country: "US",
        default_currency: "USD",
        role: "api_client",
        created_at: "2030-01-01T00:00:00.000Z",
        updated_at: "2030-01-01T00:00:00.000Z",
        deleted_at: null,
      })
      const roundTrips = async (work: () => Promise<unknown>) => (await queriesSent(work)).length
      const find = (id: string) => storage.transaction((tx) => tx.companies.find(workspace, CompanyId.make(id)))
      await find("cmp_warm")
      expect({
        oneRead: await roundTrips(() => find("cmp_none")),
        nothing: await roundTrips(() => storage.transaction(() => "no statement")),
        nothingThenFailed: await roundTrips(() =>
          storage
            .transaction(() => {
              throw new Error("before any statement")
            })
            .catch(() => "failed, as it should"),
        ),
      }).toEqual({ oneRead: 2, nothing: 0, nothingThenFailed: 0 })
      // Its first statement written, then the transaction fails: the row is not kept.
      const failed = storage.transaction(async (tx) => {
        await tx.companies.insert(company("cmp_rolled_back"))
        throw new Error("after the first statement")
      })
      await expect(failed).rejects.toThrow("after the first statement")
      await storage.transaction(async (tx) => {
        await tx.companies.insert(company("cmp_kept"))
      })
      expect({ rolledBack: await find("cmp_rolled_back"), kept: (await find("cmp_kept"))?.id }).toEqual({
        rolledBack: undefined,
        kept: "cmp_kept",
      })
    }))

  // One connection, so every query below runs on the connection that prepared the statements.
  it("prepares the hot queries once per connection, and keeps them valid when a migration adds columns", () =>
    onOwnSchema("test_named", async (storage) => {
      const noCompany = brandId("cmp", "cmp_none")
      const hotReads = () =>
        storage.transaction(async (tx) => ({
          company: await tx.companies.find(brandId("ws", "ws_none"), noCompany),
          quote: await tx.quotes.find(noCompany, brandId("qt", "qt_none")),
          payment: await tx.payments.findByIdempotencyKey(noCompany, "key"),
          profiles: await tx.paymentProfiles.findInUse(noCompany, [brandId("pp", "pp_a"), brandId("pp", "pp_b")]),
          lane: await tx.webhookDeliveries.takeLane(
            brandId("whd", "whd_none"),
            brandId("we", "we_none"),
            "2030-01-01T00:00:00.000Z",
            { size: 5, reach: 5 },
          ),
          laneStart: await tx.webhookDeliveries.findForLane(brandId("whd", "whd_none")),
        }))
      const none = {
        company: undefined,
        quote: undefined,
        payment: undefined,
        profiles: [],
        lane: [],
        laneStart: undefined,
      }
      expect(await hotReads()).toEqual(none)
      const prepared = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(storage.db)
      expect(prepared.rows.filter((row) => row.name.startsWith("pe_")).length).toBeGreaterThanOrEqual(6)

      const altered = ["companies", "quotes", "payments", "payment_profiles", "webhook_deliveries", "webhook_endpoints"]
      for (const table of altered) {
        await sql`alter table ${sql.table(table)} add column added_later text`.execute(storage.db)
      }
      expect(await hotReads()).toEqual(none)
    }))
})
