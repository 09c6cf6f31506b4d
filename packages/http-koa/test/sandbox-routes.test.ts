import { sandboxTestBanks } from "@payments-engine/adapters"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { expectDocumentedShape, type Payer, setUpPayer } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/** The sandbox helpers (DECISIONS, "Sandbox helpers") on a test service in sandbox mode. */
const sqlite = openTestSqlite()
let service: TestService
let payer: Payer
beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory(), sandbox: true })
  payer = await setUpPayer(service, "sandbox")
})
afterAll(async () => {
  await service.close()
  await sqlite.close()
})

const advance = (body: unknown, token = payer.token) =>
  service.request("POST", "/api/v1/sandbox/clock/advance", { token, body })
const link = (entityId: string, body?: unknown, token = payer.token) =>
  service.request("POST", `/api/v1/sandbox/entities/${entityId}/funding_accounts`, {
    token,
    ...(body === undefined ? {} : { body }),
  })

describe("POST /api/v1/sandbox/clock/advance", () => {
  it("moves the workspace's clock by whole seconds from 0 to one year and answers the new time", async () => {
    const start = service.clock.now().getTime()
    const moved = await advance({ seconds: 90 })
    expectDocumentedShape(service.routes, "sandboxAdvanceClock", moved)
    expect(moved.body).toEqual({ data: { now: new Date(start + 90_000).toISOString(), jobs_run: 0 } })
    expect((await advance({ seconds: 0 })).body.data.now).toBe(new Date(start + 90_000).toISOString())
    const year = 31_536_000
    const token = await service.signIn("sandbox")
    expect((await advance({ seconds: year }, token)).body.data.now).toBe(
      new Date(start + 90_000 + year * 1000).toISOString(),
    )
    payer = await setUpPayer(service, "sandbox")
  })

  it("answers 422 seconds for anything but a whole number from 0 to 31,536,000, and moves nothing then", async () => {
    const before = (await advance({ seconds: 0 })).body.data.now
    for (const seconds of [-1, 1.5, 31_536_001, "10", null, true, [1], { n: 1 }, 1e21]) {
      expectError(await advance({ seconds }), 422, "seconds", "must be a whole number from 0 to 31536000")
    }
    expectError(await advance({}), 400, "seconds", "Seconds is required")
    expectError(await advance([60]), 400, "body", "Body must be a JSON object")
    expect((await advance({ seconds: 0 })).body.data.now).toBe(before)
  })

  it("needs a write key and a token", async () => {
    expectError(
      await advance({ seconds: 1 }, await service.signIn("sandbox", "read")),
      403,
      "base",
      "API key does not have permission for this action",
    )
    expect((await service.request("POST", "/api/v1/sandbox/clock/advance", { body: { seconds: 1 } })).status).toBe(401)
  })
})

describe("POST /api/v1/sandbox/entities/{eid}/funding_accounts", () => {
  it("links the default test bank, or the one named, as an active ACH debit profile", async () => {
    const [first, second] = sandboxTestBanks
    if (first === undefined || second === undefined) throw new Error("the sandbox has fewer than two test banks")
    for (const [body, bank] of [
      [undefined, first],
      [{}, first],
      [{ institution_id: second.id }, second],
    ] as const) {
      const linked = await link(payer.eid, body)
      expectDocumentedShape(service.routes, "sandboxLinkFundingAccount", linked)
      expect(linked.body.data).toMatchObject({
        currency: "USD",
        owner_type: "Entity",
        owner_id: payer.eid,
        account_details: [{ account_number_mask: `****${bank.accountNumber.slice(-4)}`, account_number_type: "other" }],
        routing_details: [
          {
            routing_number: bank.routingNumber,
            routing_number_type: "aba",
            bank_name: bank.name,
            payment_method: "ach",
          },
        ],
        party_address: null,
        payment_profiles: [{ usage_type: "debit", status: "active", payment_method: "ach", currency: "USD" }],
      })
      expect(linked.text).not.toContain(bank.accountNumber)
      const listed = await service.request("GET", `/api/v1/companies/${payer.cid}/bank_accounts?per_page=100`, {
        token: payer.token,
      })
      expect(listed.body.data.map((a: { id: string }) => a.id)).toContain(linked.body.data.id)
    }
  })

  it("answers 404 entity_id for an unknown entity or another workspace's, 422 for a wrong institution_id type", async () => {
    for (const [entityId, token] of [
      ["ent_missing", payer.token],
      [payer.eid, await service.signIn("sandbox-strangers")],
    ] as const) {
      expectError(
        await link(entityId, {}, token),
        404,
        "entity_id",
        "Entity not found or not accessible in this company",
      )
    }
    expectError(await link(payer.eid, { institution_id: 7 }), 422, "institution_id", "must be a string")
    expectError(
      await link(payer.eid, {}, await service.signIn("sandbox", "read")),
      403,
      "base",
      "API key does not have permission for this action",
    )
  })

  it("answers 422 institution_id, naming the test banks, for a bank the sandbox does not have", async () => {
    const accounts = () =>
      service.request("GET", `/api/v1/companies/${payer.cid}/bank_accounts`, { token: payer.token })
    const before = (await accounts()).body.meta.total_records
    expectError(
      await link(payer.eid, { institution_id: "sandbox_no_such_bank" }),
      422,
      "institution_id",
      `Unknown institution; available: ${sandboxTestBanks.map((bank) => bank.id).join(", ")}`,
    )
    expect((await accounts()).body.meta.total_records).toBe(before)
  })
})
