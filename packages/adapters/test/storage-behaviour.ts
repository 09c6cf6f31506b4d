import {
  type Awaitable,
  type BankAccountId,
  brandId,
  type CompanyId,
  type CompanyRecord,
  type EntityRecord,
  erasedFingerprint,
  type FeatureRecord,
  type IdempotencyRecord,
  type IdPrefix,
  type PaymentProfileRecord,
  type RecipientRecord,
  type Repositories,
  type WorkspaceId,
} from "@payments-engine/core"
import { CompiledQuery, type KyselyPlugin, sql } from "kysely"
import { afterAll, describe, expect, it } from "vitest"
import { type KyselyStorage, migrateStorage } from "../src/kysely.ts"
import { storageMigrations } from "../src/storage/migrations/storage-migrations.ts"
import { kyselyPaymentRepository } from "../src/storage/repositories/payments.ts"
import type { TestStorages } from "../src/testing/index.ts"

/** What one run of the behaviour suite needs to know about its storages. */
export interface StorageTarget {
  readonly name: string
  readonly source: TestStorages<string>
  /** What `capabilities.multiProcess` must say. */
  readonly multiProcess: boolean
  /**
   * Whether two transactions can be open at once (a server with a pool). PGlite and SQLite run
   * transactions one after another, so a test must not make one wait for the other.
   */
  readonly concurrentTransactions: boolean
}

const at = "2025-03-01T12:00:00.000Z"
let sequence = 0
/** Ids unique within the file that sort in creation order. */
const nextId = <P extends IdPrefix>(prefix: P) => {
  sequence += 1
  return brandId(prefix, `${prefix}_${String(sequence).padStart(8, "0")}`)
}

const companyRow = (workspaceId: WorkspaceId, id = nextId("cmp")): CompanyRecord => ({
  id,
  workspace_id: workspaceId,
  name: `Company ${id}`,
  country: "US",
  default_currency: "USD",
  role: "api_client",
  created_at: at,
  updated_at: at,
  deleted_at: null,
})

const entityRow = (companyId: CompanyId, id = nextId("ent")): EntityRecord => ({
  id,
  company_id: companyId,
  name: `Entity ${id}`,
  country_alpha2: "US",
  payment_integration_active: false,
  created_at: at,
  updated_at: at,
  deleted_at: null,
})

const recipientRow = (companyId: CompanyId, id = nextId("rcp")): RecipientRecord => ({
  id,
  company_id: companyId,
  name: `Recipient ${id}`,
  email: null,
  created_at: at,
  updated_at: at,
  deleted_at: null,
})

const claimRow = (workspaceId: WorkspaceId, key: string, fingerprint = "f1"): IdempotencyRecord => ({
  workspace_id: workspaceId,
  key,
  fingerprint,
  response_status: null,
  response_body: null,
  created_at: at,
  expires_at: "2025-03-02T12:00:00.000Z",
  locked_until: "2025-03-01T12:01:00.000Z",
  owner: null,
  journal: null,
})

/** Writes a workspace and a company straight through Kysely, not through the repositories. */
const seedCompany = async (storage: KyselyStorage) => {
  const workspaceId = nextId("ws")
  await storage.db.insertInto("workspaces").values({ id: workspaceId, name: workspaceId, created_at: at }).execute()
  const company = companyRow(workspaceId)
  await storage.db.insertInto("companies").values(company).execute()
  return { workspaceId, company }
}

/** Resolves for everyone once `parties` callers have arrived. */
const barrier = (parties: number) => {
  let arrived = 0
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return async () => {
    arrived += 1
    if (arrived === parties) open()
    await opened
  }
}

const countRows = async (storage: KyselyStorage, table: "companies" | "entities" | "idempotency_records") =>
  Number(
    (
      await storage.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  )

/**
 * The behaviour every dialect of the Kysely storage must show, registered as one `describe`.
 * Writes under test go through the storage; reads that check them go through `storage.db`.
 */
export const describeStorage = (target: StorageTarget): void => {
  const { source } = target

  describe(target.name, () => {
    afterAll(() => source.close())

    /**
     * Runs each `work` in its own transaction, all at once. Where a server allows it, each waits
     * inside its open transaction until all are open, so they really overlap.
     */
    const racing = <T>(storage: KyselyStorage, works: ReadonlyArray<(tx: Repositories) => Awaitable<T>>) => {
      const allOpen = barrier(works.length)
      return Promise.all(
        works.map((work) =>
          storage.transaction(async (tx) => {
            if (target.concurrentTransactions) await allOpen()
            return work(tx)
          }),
        ),
      )
    }

    it("declares its capabilities", async () => {
      const storage = await source.factory()
      expect(storage.capabilities).toEqual({
        multiProcess: target.multiProcess,
        concurrentTransactions: target.concurrentTransactions,
      })
      await storage.close()
    })

    it("runs its migrations once: opening again keeps the data and adds no migration", async () => {
      const storage = await source.factory()
      const { workspaceId, company } = await seedCompany(storage)
      await migrateStorage(storage.db, { dialect: storage.dialect })
      const reopened = source.kind === "memory" ? storage : await source.reopen(storage)
      await migrateStorage(reopened.db, { dialect: reopened.dialect })
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(reopened.db)
      expect(rows.map((row) => row.name)).toEqual([
        "0001_initial",
        "0002_money_movement",
        "0003_features",
        "0004_job_keys",
        "0005_key_lifecycle",
        "0006_keyed_fingerprints",
        "0007_test_clocks",
        "0008_keyed_jobs_index",
        "0009_payment_batches",
        "0010_processing_payments_index",
        "0011_webhook_endpoints",
        "0012_webhook_deliveries",
        "0013_entity_onboarding",
        "0014_onboarding_attachments",
        "0015_webhook_delivery_lanes",
        "0016_trusted_domains",
        "0017_used_hosted_page_tokens",
        "0018_funding_mandates",
        "0019_job_queues",
        "0020_idempotency_journal",
        "0021_endpoint_circuits",
        "0022_workspace_brandings",
        "0023_events_by_workspace",
        "0024_webhook_operations",
      ])
      expect(
        await reopened.db.selectFrom("companies").selectAll().where("workspace_id", "=", workspaceId).execute(),
      ).toEqual([company])
      await reopened.close()
      await storage.close()
    })

    it("commits a resolved transaction and resolves with the work's value", async () => {
      const storage = await source.factory()
      const { workspaceId } = await seedCompany(storage)
      const row = companyRow(workspaceId)
      const value = await storage.transaction(async (tx) => {
        await tx.companies.insert(row)
        return { written: row.id }
      })
      expect(value).toEqual({ written: row.id })
      expect(await storage.db.selectFrom("companies").selectAll().where("id", "=", row.id).execute()).toEqual([row])
      await storage.close()
    })

    it("rolls back every write of a rejected transaction and rejects with the same error", async () => {
      const storage = await source.factory()
      const { workspaceId, company } = await seedCompany(storage)
      const before = {
        companies: await countRows(storage, "companies"),
        entities: await countRows(storage, "entities"),
      }
      const reason = new Error("the work failed")
      const outcome = storage.transaction(async (tx) => {
        await tx.companies.insert(companyRow(workspaceId))
        await tx.companies.update({ ...company, name: "Renamed in vain" })
        expect(await tx.entities.insertIfNoneActive(entityRow(company.id))).toBe(true)
        await tx.idempotency.claim(claimRow(workspaceId, "rolled-back"))
        await tx.settings.putIfAbsent(`setting-${workspaceId}`, "value")
        await tx.workspaces.insertOrGet({ id: nextId("ws"), name: `rolled-back-${workspaceId}`, created_at: at })
        throw reason
      })
      await expect(outcome).rejects.toBe(reason)
      expect({
        companies: await countRows(storage, "companies"),
        entities: await countRows(storage, "entities"),
      }).toEqual(before)
      expect(await countRows(storage, "idempotency_records")).toBe(0)
      const renamed = await storage.db
        .selectFrom("companies")
        .select("name")
        .where("id", "=", company.id)
        .executeTakeFirst()
      expect(renamed?.name).toBe(company.name)
      const settings = await storage.db.selectFrom("settings").selectAll().execute()
      expect(settings).toEqual([])
      const workspaces = await storage.db.selectFrom("workspaces").select("name").execute()
      expect(workspaces).toEqual([{ name: workspaceId }])
      await storage.close()
    })

    it("lets exactly one of two racing entity inserts for one company win, in one or in two transactions", async () => {
      const storage = await source.factory()
      const { company } = await seedCompany(storage)
      const [first, second] = [entityRow(company.id), entityRow(company.id)]
      const results = await racing(storage, [
        (tx) => tx.entities.insertIfNoneActive(first),
        (tx) => tx.entities.insertIfNoneActive(second),
      ])
      expect(results.filter(Boolean)).toHaveLength(1)
      const live = await storage.db.selectFrom("entities").select("id").where("company_id", "=", company.id).execute()
      expect(live).toEqual([{ id: results[0] ? first.id : second.id }])

      const other = await seedCompany(storage)
      const inOne = await storage.transaction((tx) =>
        Promise.all([
          tx.entities.insertIfNoneActive(entityRow(other.company.id)),
          tx.entities.insertIfNoneActive(entityRow(other.company.id)),
        ]),
      )
      expect(inOne.filter(Boolean)).toHaveLength(1)
      expect(await countRows(storage, "entities")).toBe(2)
      await storage.close()
    })

    it("lets one of racing feature inserts and one of racing status changes win, and sets only the integration flag", async () => {
      const storage = await source.factory()
      const { workspaceId, company } = await seedCompany(storage)
      const entity = entityRow(company.id)
      await storage.transaction((tx) => tx.entities.insertIfNoneActive(entity))
      const featureRow = (): FeatureRecord => ({
        application_id: nextId("app"),
        workspace_id: workspaceId,
        company_id: company.id,
        entity_id: entity.id,
        feature_identifier: "multi_currency_account",
        status: "CREATED",
        machine_version: 1,
        created_at: at,
        updated_at: at,
      })
      const inserts = await racing(
        storage,
        [featureRow(), featureRow()].map((row) => (tx: Repositories) => tx.features.insertOrGet(row)),
      )
      const [winner, ...others] = inserts.filter((outcome) => outcome.inserted).map((outcome) => outcome.feature)
      expect(others).toEqual([])
      for (const outcome of inserts) expect(outcome.feature).toEqual(winner)
      expect(await storage.db.selectFrom("features").selectAll().execute()).toEqual([winner])

      const later = "2025-03-01T12:05:00.000Z"
      const moves = await racing(
        storage,
        (["SUBMITTED", "ACTION_REQUIRED"] as const).map(
          (to) => (tx: Repositories) => tx.features.compareAndSetStatus(winner!.application_id, "CREATED", to, later),
        ),
      )
      const moved = moves.filter((row) => row !== undefined)
      expect(moved).toHaveLength(1)
      expect(await storage.db.selectFrom("features").selectAll().execute()).toEqual(moved)

      expect(await storage.transaction((tx) => tx.entities.markIntegrationActive(company.id, entity.id))).toBe(true)
      await storage.transaction((tx) => tx.entities.update({ ...entity, name: "Renamed from a stale read" }))
      const stored = await storage.db.selectFrom("entities").selectAll().where("id", "=", entity.id).executeTakeFirst()
      expect(stored).toEqual({ ...entity, name: "Renamed from a stale read", payment_integration_active: 1 })
      await storage.close()
    })

    it("allows a new entity once the company's live one is deleted, and maps the integration flag", async () => {
      const storage = await source.factory()
      const { company } = await seedCompany(storage)
      const first = { ...entityRow(company.id), payment_integration_active: true }
      expect(await storage.transaction((tx) => tx.entities.insertIfNoneActive(first))).toBe(true)
      const stored = await storage.db.selectFrom("entities").selectAll().where("id", "=", first.id).executeTakeFirst()
      expect(stored?.payment_integration_active).toBe(1)
      expect(await storage.transaction((tx) => tx.entities.findActiveOfCompany(company.id))).toEqual(first)
      await storage.transaction((tx) => tx.entities.update({ ...first, deleted_at: at }))
      const second = entityRow(company.id)
      expect(await storage.transaction((tx) => tx.entities.insertIfNoneActive(second))).toBe(true)
      const rows = await storage.db.selectFrom("entities").select(["id", "deleted_at"]).orderBy("id").execute()
      expect(rows).toEqual([
        { id: first.id, deleted_at: at },
        { id: second.id, deleted_at: null },
      ])
      await storage.close()
    })

    it("grants a racing idempotency claim to exactly one caller and shows the others the winner's record", async () => {
      const storage = await source.factory()
      const { workspaceId } = await seedCompany(storage)
      const claims = ["f1", "f2", "f3"].map((fingerprint) => claimRow(workspaceId, "race", fingerprint))
      const results = await racing(
        storage,
        claims.map((row) => (tx) => tx.idempotency.claim(row)),
      )
      const winners = results.flatMap((result, i) => (result.claimed ? [claims[i]] : []))
      expect(winners).toHaveLength(1)
      const stored = await storage.db.selectFrom("idempotency_records").selectAll().execute()
      expect(stored).toEqual([winners[0]])
      for (const result of results) if (!result.claimed) expect(result.existing).toEqual(winners[0])
      await storage.close()
    })

    it("replaces, deletes and purges idempotency records by workspace and key", async () => {
      const storage = await source.factory()
      const { workspaceId } = await seedCompany(storage)
      const other = await seedCompany(storage)
      const kept = { ...claimRow(workspaceId, "kept"), expires_at: "2025-03-03T00:00:00.000Z" }
      await storage.transaction(async (tx) => {
        await tx.idempotency.claim(claimRow(workspaceId, "expired"))
        await tx.idempotency.claim(kept)
        await tx.idempotency.claim(claimRow(other.workspaceId, "kept"))
        await tx.idempotency.replace({
          ...kept,
          response_status: 201,
          response_body: '{"ok":true}',
          locked_until: null,
        })
        await tx.idempotency.delete(other.workspaceId, "kept")
      })
      expect(await storage.transaction((tx) => tx.idempotency.purgeExpired("2025-03-02T12:00:00.000Z"))).toBe(1)
      const rows = await storage.db.selectFrom("idempotency_records").selectAll().execute()
      expect(rows).toEqual([{ ...kept, response_status: 201, response_body: '{"ok":true}', locked_until: null }])
      await storage.close()
    })

    it("erases the unkeyed fingerprints stored before keyed ones, keeping their records to replay", async () => {
      const storage = await source.factory()
      const { workspaceId } = await seedCompany(storage)
      // what the engine stored before: the SHA-256 (hex) of method, path and body
      const unkeyed = {
        ...claimRow(workspaceId, "before", "3f".repeat(32)),
        response_status: 201,
        response_body: '{"data":{"id":"ba_1"}}',
        locked_until: null,
      }
      const keyed = claimRow(workspaceId, "after", `hmac-sha256:0a1b2c3d:${"e7".repeat(32)}`)
      await storage.transaction(async (tx) => {
        await tx.idempotency.claim(unkeyed)
        await tx.idempotency.claim(keyed)
      })
      const migration = (await storageMigrations(storage.dialect).getMigrations())["0006_keyed_fingerprints"]
      await migration!.up(storage.db)
      await migration!.up(storage.db)
      const rows = await storage.db.selectFrom("idempotency_records").selectAll().orderBy("key").execute()
      expect(rows).toEqual([keyed, { ...unkeyed, fingerprint: erasedFingerprint }])
      await storage.close()
    })

    it("pages lists in id order with the total, and returns no rows for huge offsets", async () => {
      const storage = await source.factory()
      const { workspaceId, company } = await seedCompany(storage)
      const companies = [company, companyRow(workspaceId), companyRow(workspaceId)]
      const recipients = [recipientRow(company.id), recipientRow(company.id), recipientRow(company.id)]
      await storage.transaction(async (tx) => {
        // Inserted out of id order, so the order of the list comes from the query.
        for (const row of [...companies.slice(1)].reverse()) await tx.companies.insert(row)
        for (const row of [...recipients].reverse()) await tx.recipients.insert(row)
        await tx.entities.insertIfNoneActive(entityRow(company.id))
      })
      const lists = (offset: number, limit: number) =>
        storage.transaction(async (tx) => ({
          companies: await tx.companies.listActive(workspaceId, { offset, limit }),
          entities: await tx.entities.listActive(company.id, { offset, limit }),
          recipients: await tx.recipients.listActive(company.id, { offset, limit }),
        }))
      const middle = await lists(1, 1)
      expect(middle.companies).toEqual({ rows: [companies[1]], total: 3 })
      expect(middle.recipients).toEqual({ rows: [recipients[1]], total: 3 })
      expect(middle.entities).toEqual({ rows: [], total: 1 })
      expect((await lists(0, 10)).companies.rows).toEqual(companies)
      for (const offset of [3, 2 ** 31, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER]) {
        const far = await lists(offset, 100)
        expect(far).toEqual({
          companies: { rows: [], total: 3 },
          entities: { rows: [], total: 1 },
          recipients: { rows: [], total: 3 },
        })
      }
      // The database itself takes such an offset too.
      const raw = await storage.db
        .selectFrom("companies")
        .selectAll()
        .limit(100)
        .offset(Number.MAX_SAFE_INTEGER)
        .execute()
      expect(raw).toEqual([])
      await storage.close()
    })

    it("reads the stuck payments through the partial index of processing payments, not a scan of every payment", async () => {
      const storage = await source.factory()
      const compiled: Array<CompiledQuery> = []
      const executor = storage.db.getExecutor()
      const capture: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          compiled.push(executor.compileQuery(node, queryId))
          return node
        },
        transformResult: async ({ result }) => result,
      }
      await kyselyPaymentRepository(storage.db.withPlugin(capture)).listStuck(at, 100)
      expect(compiled).toHaveLength(1)
      const { sql: text, parameters } = compiled[0]!
      const plan = await storage.db.transaction().execute(async (trx) => {
        if (storage.dialect.name === "sqlite") {
          return (await trx.executeQuery(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]))).rows
        }
        // An empty table is read faster whole: tell Postgres to prefer the index whenever it may use it.
        await sql`set local enable_seqscan = off`.execute(trx)
        return (await trx.executeQuery(CompiledQuery.raw(`explain ${text}`, [...parameters]))).rows
      })
      const steps = JSON.stringify(plan)
      expect(steps).toContain("payments_processing_by_update")
      expect(steps).not.toMatch(/SCAN payments|Seq Scan on payments/)
      await storage.close()
    })

    it("leaves deleted rows out of lists and finds", async () => {
      const storage = await source.factory()
      const { workspaceId, company } = await seedCompany(storage)
      const recipient = recipientRow(company.id)
      await storage.transaction(async (tx) => {
        await tx.recipients.insert(recipient)
        await tx.recipients.update({ ...recipient, deleted_at: at })
        await tx.companies.update({ ...company, deleted_at: at })
      })
      const seen = await storage.transaction(async (tx) => ({
        company: await tx.companies.find(workspaceId, company.id),
        companies: await tx.companies.listActive(workspaceId, { offset: 0, limit: 10 }),
        recipient: await tx.recipients.findActive(company.id, recipient.id),
        recipients: await tx.recipients.listActive(company.id, { offset: 0, limit: 10 }),
      }))
      expect(seen).toEqual({
        company: { ...company, deleted_at: at },
        companies: { rows: [], total: 0 },
        recipient: undefined,
        recipients: { rows: [], total: 0 },
      })
      await storage.close()
    })

    it("scopes companies, entities and recipients by the ids it is given", async () => {
      const storage = await source.factory()
      const mine = await seedCompany(storage)
      const theirs = await seedCompany(storage)
      const entity = entityRow(mine.company.id)
      const recipient = recipientRow(mine.company.id)
      await storage.transaction(async (tx) => {
        await tx.entities.insertIfNoneActive(entity)
        await tx.recipients.insert(recipient)
        // Writes that name the wrong parent change nothing.
        await tx.companies.update({ ...mine.company, workspace_id: theirs.workspaceId, name: "Hijacked" })
        await tx.entities.update({ ...entity, company_id: theirs.company.id, name: "Hijacked" })
        await tx.recipients.update({ ...recipient, company_id: theirs.company.id, name: "Hijacked" })
      })
      const seen = await storage.transaction(async (tx) => ({
        ownCompany: await tx.companies.find(mine.workspaceId, mine.company.id),
        foreignCompany: await tx.companies.find(theirs.workspaceId, mine.company.id),
        foreignList: await tx.companies.listActive(theirs.workspaceId, { offset: 0, limit: 10 }),
        foreignEntity: await tx.entities.findActive(theirs.company.id, entity.id),
        foreignRecipient: await tx.recipients.findActive(theirs.company.id, recipient.id),
      }))
      expect(seen).toEqual({
        ownCompany: mine.company,
        foreignCompany: undefined,
        foreignList: { rows: [theirs.company], total: 1 },
        foreignEntity: undefined,
        foreignRecipient: undefined,
      })
      const names = await storage.db
        .selectFrom("companies")
        .select("name")
        .where("id", "=", mine.company.id)
        .unionAll((db) => db.selectFrom("entities").select("name").where("id", "=", entity.id))
        .unionAll((db) => db.selectFrom("recipients").select("name").where("id", "=", recipient.id))
        .execute()
      expect(names.map((row) => row.name)).not.toContain("Hijacked")
      await storage.close()
    })

    it("reads the company's payment profiles among many ids in one call, in id order", async () => {
      const storage = await source.factory()
      const mine = await seedCompany(storage)
      const theirs = await seedCompany(storage)
      const profileRow = (companyId: CompanyId, bankAccountId: BankAccountId): PaymentProfileRecord => ({
        id: nextId("pp"),
        bank_account_id: bankAccountId,
        company_id: companyId,
        status: "active",
        payment_method: "ACH",
        currency: "USD",
        usage_type: "credit",
        created_at: at,
        updated_at: at,
      })
      const accounts = [mine.company.id, theirs.company.id].map((companyId) => ({
        id: nextId("ba"),
        company_id: companyId,
        owner_type: "Counterparty",
        owner_id: nextId("rcp"),
        currency: "USD",
        current_balance: "0.00",
        last_synced_at: null,
        provider_beneficiary_id: null,
        provider_connection_id: null,
        account_details: "[]",
        routing_details: "[]",
        party_address: null,
        created_at: at,
        updated_at: at,
      }))
      await storage.db.insertInto("bank_accounts").values(accounts).execute()
      const own = [profileRow(mine.company.id, accounts[0]!.id), profileRow(mine.company.id, accounts[0]!.id)]
      const foreign = profileRow(theirs.company.id, accounts[1]!.id)
      await storage.db
        .insertInto("payment_profiles")
        .values([...own, foreign])
        .execute()
      const seen = await storage.transaction(async (tx) => ({
        // Out of id order, repeated, with a foreign and an unknown id among them.
        many: await tx.paymentProfiles.findMany(mine.company.id, [
          own[1]!.id,
          foreign.id,
          brandId("pp", "pp_none"),
          own[0]!.id,
          own[1]!.id,
        ]),
        // One payment's two profiles, the common case.
        pair: await tx.paymentProfiles.findMany(mine.company.id, [own[1]!.id, own[0]!.id]),
        pairWithForeign: await tx.paymentProfiles.findMany(mine.company.id, [foreign.id, own[1]!.id]),
        one: await tx.paymentProfiles.findMany(mine.company.id, [own[0]!.id]),
        none: await tx.paymentProfiles.findMany(mine.company.id, []),
      }))
      expect(seen).toEqual({ many: own, pair: own, pairWithForeign: [own[1]], one: [own[0]], none: [] })
      await storage.close()
    })

    it("keeps the first of racing workspace and setting writes", async () => {
      const storage = await source.factory()
      const name = `shared_${nextId("ws")}`
      const workspaces = await racing(
        storage,
        [nextId("ws"), nextId("ws")].map((id) => (tx) => tx.workspaces.insertOrGet({ id, name, created_at: at })),
      )
      expect(workspaces[1]).toEqual(workspaces[0])
      const stored = await storage.db.selectFrom("workspaces").selectAll().where("name", "=", name).execute()
      expect(stored).toEqual([workspaces[0]])
      const values = await racing(
        storage,
        ["a", "b"].map((value) => (tx) => tx.settings.putIfAbsent(name, value)),
      )
      const setting = await storage.db.selectFrom("settings").select("value").where("name", "=", name).execute()
      expect(setting).toHaveLength(1)
      expect(values).toEqual([setting[0]?.value, setting[0]?.value])
      await storage.close()
    })

    it.runIf(target.concurrentTransactions)(
      "passes over a delivery another lane's open transaction holds (row locks), and lists it once that ends",
      async () => {
        const storage = await source.factory()
        const at = "2030-03-07T00:00:00.000Z"
        const endpoint = brandId("we", "we_locks")
        const delivery = (id: string) => ({
          id: brandId("whd", id),
          workspace_id: brandId("ws", "ws_locks"),
          company_id: brandId("cmp", "cmp_locks"),
          endpoint_id: endpoint,
          event_id: brandId("evt", `evt_${id}`),
          event_name: "entity.updated",
          payload: "{}",
          status: "pending" as const,
          machine_version: 1,
          attempt_count: 0,
          last_status_code: null,
          next_attempt_at: at,
          attempts: "[]",
          created_at: at,
          updated_at: at,
          lane_id: null,
        })
        const [held, free] = [delivery("whd_1"), delivery("whd_2")]
        await storage.transaction(async (tx) => {
          await tx.webhookDeliveries.insertIfNew(held)
          await tx.webhookDeliveries.insertIfNew(free)
        })
        const listDue = () =>
          storage.transaction((tx) => tx.webhookDeliveries.listDue(endpoint, at, brandId("whd", "whd_lane"), 10))
        let holding!: () => void
        let release!: () => void
        const isHeld = new Promise<void>((resolve) => {
          holding = resolve
        })
        const released = new Promise<void>((resolve) => {
          release = resolve
        })
        const lane = storage.transaction(async (tx) => {
          await tx.webhookDeliveries.findForLane(held.id)
          holding()
          await released
        })
        await isHeld
        const whileHeld = await listDue()
        release()
        await lane
        expect({ whileHeld: whileHeld.map((row) => row.id), after: (await listDue()).map((row) => row.id) }).toEqual({
          whileHeld: [free.id],
          after: [held.id, free.id],
        })
        await storage.close()
      },
    )

    it("answers a read without a transaction, and refuses its writes and jobs, writing nothing", async () => {
      const storage = await source.factory()
      const { workspaceId, company } = await seedCompany(storage)
      const read = storage.read?.bind(storage)
      if (read === undefined) throw new Error("the Kysely storage has read")
      expect(await read((tx) => tx.companies.find(workspaceId, company.id))).toEqual(company)
      const added = companyRow(workspaceId)
      await expect(read((tx) => tx.companies.insert(added))).rejects.toThrow(/must not write/)
      await expect(read((tx) => tx.companies.update({ ...company, name: "Renamed in a read" }))).rejects.toThrow(
        /must not write/,
      )
      const job = {
        id: brandId("job", "job_read"),
        kind: "purge_idempotency",
        payload: "{}",
        run_at: at,
        key: "read:job",
        max_attempts: 1,
        created_at: at,
        workspace_id: null,
      }
      await expect(read((tx) => tx.jobs.enqueue(job))).rejects.toThrow(/must not write \(jobs.enqueue\)/)
      await expect(read((tx) => tx.jobs.removeUnstarted(["read:job"]))).rejects.toThrow(/must not write/)
      expect(
        await storage.db.selectFrom("companies").select("name").where("workspace_id", "=", workspaceId).execute(),
      ).toEqual([{ name: company.name }])
      // The connection went back: a transaction and a read both still run.
      expect(await storage.transaction((tx) => tx.companies.find(workspaceId, company.id))).toEqual(company)
      expect(await read((tx) => tx.companies.find(workspaceId, company.id))).toEqual(company)
      await storage.close()
      await expect(read((tx) => tx.apiKeys.count())).rejects.toThrow("storage is closed")
    })

    it("refuses transactions once closed", async () => {
      const storage = await source.factory()
      await storage.close()
      await storage.close()
      await expect(storage.transaction((tx) => tx.apiKeys.count())).rejects.toThrow("storage is closed")
    })
  })
}
