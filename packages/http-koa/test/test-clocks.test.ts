import { createSandboxPaymentProvider } from "@payments-engine/adapters"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { createQuote, type Payer, paymentBody, setUpPayer } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * DECISIONS "Sandbox helpers": the clock helper moves the test clock of the caller's workspace
 * only, the workspace's jobs that became due by it run, and another workspace sees no change.
 * Over HTTP on a real socket, on SQLite (embedded runner) and Postgres (graphile-worker).
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("test clocks per workspace on %s", (_name, factory) => {
  const paymentProvider = createSandboxPaymentProvider()
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ storage: await factory(), sandbox: true, paymentProvider })
  })
  afterAll(() => service.close())

  const advance = (payer: Payer, seconds: number) =>
    service.request("POST", "/api/v1/sandbox/clock/advance", { token: payer.token, body: { seconds } })
  const pay = (payer: Payer, quoteId: string, key: string) =>
    service.request("POST", `/api/v1/companies/${payer.cid}/payments`, {
      token: payer.token,
      body: paymentBody(quoteId, key),
    })
  const statusOf = async (payer: Payer, paymentId: string) =>
    (await service.request("GET", `/api/v1/companies/${payer.cid}/payments/${paymentId}`, { token: payer.token }))
      .body.data.status

  it("another workspace's advance leaves a quote fresh; the quote's own workspace's advance expires it", async () => {
    const a = await setUpPayer(service, "clock-a")
    const b = await setUpPayer(service, "clock-b")
    const start = service.clock.now().getTime()
    const fresh = await createQuote(service, a, 10)
    const movedB = await advance(b, 900)
    expect(movedB.body.data).toEqual({ now: new Date(start + 900_000).toISOString(), jobs_run: 0 })
    const paid = await pay(a, fresh, "fresh")
    expect(paid.status, paid.text).toBe(201)

    const doomed = await createQuote(service, a, 11)
    const movedA = await advance(a, 900)
    // A's payment, queued before, ran: its workspace's answer counts it, B's did not.
    expect(movedA.body.data).toEqual({ now: new Date(start + 900_000).toISOString(), jobs_run: 1 })
    expect(await statusOf(a, paid.body.data.id)).toBe("completed")
    expectError(await pay(a, doomed, "doomed"), 422, "payment_quote_id", "Quote has expired")

    // Each workspace's new resources carry its own time.
    const companyOf = async (payer: Payer) =>
      (
        await service.request("POST", "/api/v1/companies", {
          token: payer.token,
          body: { name: "Stamped", country: "US", default_currency: "USD" },
        })
      ).body.data.created_at
    expect(await companyOf(a)).toBe(new Date(start + 900_000).toISOString())
    expect(await companyOf(b)).toBe(new Date(start + 900_000).toISOString())
    await advance(b, 60)
    expect(await companyOf(a)).toBe(new Date(start + 900_000).toISOString())
    expect(await companyOf(b)).toBe(new Date(start + 960_000).toISOString())
  })

  it("a retry scheduled by a workspace's time runs when that workspace advances, not when another does", async () => {
    const a = await setUpPayer(service, "retry-a")
    const b = await setUpPayer(service, "retry-b")
    const paid = await pay(a, await createQuote(service, a, 12), "retried")
    expect(paid.status, paid.text).toBe(201)
    paymentProvider.setFailure("submitPayment", true)
    try {
      // The first attempt fails; three more, each once A's clock reaches its retry. After the
      // fourth failure the next retry is a minute or two away on both runners (embedded: 125 s,
      // graphile-worker: e^4 s).
      expect((await advance(a, 0)).body.data.jobs_run).toBe(1)
      for (let attempt = 2; attempt <= 4; attempt += 1) {
        expect((await advance(a, 130)).body.data.jobs_run).toBe(1)
      }
    } finally {
      paymentProvider.setFailure("submitPayment", false)
    }
    expect(await statusOf(a, paid.body.data.id)).toBe("processing")
    expect((await advance(b, 3600)).body.data.jobs_run).toBe(0)
    expect(await statusOf(a, paid.body.data.id)).toBe("processing")
    expect((await advance(a, 130)).body.data.jobs_run).toBe(1)
    expect(await statusOf(a, paid.body.data.id)).toBe("completed")
  })

  it("a token expires by its workspace's clock, not by another's", async () => {
    const a = await setUpPayer(service, "token-a")
    const b = await setUpPayer(service, "token-b")
    await advance(b, 3600)
    expect((await service.request("GET", "/api/v1/companies", { token: a.token })).status).toBe(200)
    expectError(await service.request("GET", "/api/v1/companies", { token: b.token }), 401, "token", "Missing or invalid token")
    await advance(a, 3599)
    expect((await service.request("GET", "/api/v1/companies", { token: a.token })).status).toBe(200)
    await advance(a, 1)
    expect((await service.request("GET", "/api/v1/companies", { token: a.token })).status).toBe(401)
  })
})
