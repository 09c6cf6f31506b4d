import { join } from "node:path"
import { createSandboxPaymentProvider } from "@payments-engine/adapters"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { childEnvironment, type LineWatcher, logMessage, startNode } from "./support/child-process.ts"
import { expectError } from "./support/expectations.ts"
import { createQuote, type Payer, paymentBody, setUpPayer } from "./support/payment-fixtures.ts"
import { processRig } from "./support/process-rig.ts"
import { acme, readResponse, startTestService, type TestService } from "./support/test-service.ts"

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
    (await service.request("GET", `/api/v1/companies/${payer.cid}/payments/${paymentId}`, { token: payer.token })).body
      .data.status

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
    expectError(
      await service.request("GET", "/api/v1/companies", { token: b.token }),
      401,
      "token",
      "Missing or invalid token",
    )
    await advance(a, 3599)
    expect((await service.request("GET", "/api/v1/companies", { token: a.token })).status).toBe(200)
    await advance(a, 1)
    expect((await service.request("GET", "/api/v1/companies", { token: a.token })).status).toBe(401)
  })
})

/** `npm start` as an operator runs it, in sandbox mode with a known key. */
const main = ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"]
const { folder, running, serverUrl, postgresUrl } = processRig("clocks")

const key = { PAYMENTS_API_KEY: "pk_clocks", PAYMENTS_API_SECRET: "sk_clocks_secret" }
const startProcess = async (databaseUrl: string) => {
  const env = childEnvironment({
    PORT: "0",
    LOG_LEVEL: "info",
    PAYMENTS_SANDBOX: "true",
    DATABASE_URL: databaseUrl,
    ...key,
  })
  const child = startNode(main, env)
  running.add(child)
  const listening = JSON.parse(await child.waitForLine(logMessage("listening")))
  return { child, url: listening.url as string }
}
/** Stops a child with SIGTERM; its exit code. */
const stopProcess = async (child: LineWatcher) => {
  child.child.kill("SIGTERM")
  const code = await child.exited
  running.delete(child)
  return code
}
const call = async (url: string, method: string, path: string, token?: string, body?: unknown) =>
  readResponse(
    await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  )
const signIn = async (url: string) =>
  (
    await call(url, "POST", "/api/v1/sessions", undefined, {
      api_key: key.PAYMENTS_API_KEY,
      api_secret: key.PAYMENTS_API_SECRET,
    })
  ).body.data.access_token as string
const advanceBy = (url: string, token: string, seconds: number) =>
  call(url, "POST", "/api/v1/sandbox/clock/advance", token, { seconds })

describe("a workspace's test clock in real processes", () => {
  it.each([
    ["SQLite", () => `sqlite:${join(folder, "clocks.sqlite")}`],
    ["Postgres", () => postgresUrl("restart")],
  ])(
    "survives a restart on %s: a token and the timestamps behave as at the advanced time",
    async (name, urlOf) => {
      if (name === "Postgres" && serverUrl === undefined) return
      const databaseUrl = urlOf()
      const first = await startProcess(databaseUrl)
      const token = await signIn(first.url)
      const moved = await advanceBy(first.url, token, 3000)
      expect(moved.status, moved.text).toBe(200)
      const movedTo = Date.parse(moved.body.data.now)
      expect(await stopProcess(first.child)).toBe(0)

      const second = await startProcess(databaseUrl)
      try {
        const company = await call(second.url, "POST", "/api/v1/companies", token, acme)
        expect(company.status, company.text).toBe(201)
        expect(Date.parse(company.body.data.created_at)).toBeGreaterThanOrEqual(movedTo)
        // Issued at the workspace's start with an hour to live: 3000 s + 700 s is past it.
        expect((await advanceBy(second.url, token, 700)).status).toBe(200)
        expect((await call(second.url, "GET", "/api/v1/companies", token)).status).toBe(401)
      } finally {
        expect(await stopProcess(second.child)).toBe(0)
      }
    },
    60_000,
  )

  it.skipIf(serverUrl === undefined)(
    "is shared by two processes on one Postgres database: one's advance expires a token at the other",
    async () => {
      const databaseUrl = postgresUrl("shared")
      const one = await startProcess(databaseUrl)
      const two = await startProcess(databaseUrl)
      try {
        const token = await signIn(one.url)
        expect((await call(one.url, "GET", "/api/v1/companies", token)).status).toBe(200)
        const moved = await advanceBy(two.url, token, 3600)
        expect(moved.status, moved.text).toBe(200)
        expect((await call(one.url, "GET", "/api/v1/companies", token)).status).toBe(401)
        const fresh = await signIn(one.url)
        const atOne = Date.parse((await advanceBy(one.url, fresh, 0)).body.data.now)
        expect(atOne).toBeGreaterThanOrEqual(Date.parse(moved.body.data.now))
      } finally {
        // Not their exit codes: a process that shared graphile-worker's cron with another
        // sometimes exits 1 ("Runner is already stopped"), a shutdown defect of its own.
        await stopProcess(one.child)
        await stopProcess(two.child)
      }
    },
    60_000,
  )
})
