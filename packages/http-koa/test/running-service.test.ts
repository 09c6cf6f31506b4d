import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createSandboxPaymentProvider, openStorageFromUrl, sandboxExamples } from "@payments-engine/adapters"
import { deriveFingerprintKey, requestFingerprint } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createLogger } from "../src/binding/logger.ts"
import { bootstrapWorkspace } from "../src/service/bootstrap.ts"
import { loadConfig } from "../src/service/config.ts"
import { type RunningService, sandboxProvidersWarning, startService } from "../src/service/server.ts"
import { expectError } from "./support/expectations.ts"
import { fastHasher, readResponse, type TestResponse } from "./support/test-service.ts"

/**
 * The money side of `startService`, the service `npm start` runs: its background job runner,
 * its `SandboxClock`, the sandbox helpers only in sandbox mode, and a shutdown that lets the job
 * in flight finish before the database closes.
 */
const folder = mkdtempSync(join(tmpdir(), "pe-running-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const apiKey = "pk_running_service_test"
const apiSecret = "sk_running_service_test_secret"

interface Started {
  readonly service: RunningService
  readonly logs: Array<string>
  readonly api: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<TestResponse>
  /** The `DATABASE_URL` of the service. */
  readonly databaseUrl: string
}

const start = async (
  env: Record<string, string>,
  paymentProvider = createSandboxPaymentProvider(),
  databaseFile = `db-${Math.random().toString(36).slice(2)}.sqlite`,
): Promise<Started> => {
  const logs: Array<string> = []
  const databaseUrl = `sqlite:${join(folder, databaseFile)}`
  const config = loadConfig({
    PORT: "0",
    DATABASE_URL: databaseUrl,
    PAYMENTS_API_KEY: apiKey,
    PAYMENTS_API_SECRET: apiSecret,
    ...env,
  })
  const service = await startService(config, {
    logger: createLogger({ level: "debug", destination: { write: (line: string) => void logs.push(line) } }),
    hasher: fastHasher(),
    host: "127.0.0.1",
    paymentProvider,
  })
  const session = await readResponse(
    await fetch(`${service.url}/api/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: apiKey, api_secret: apiSecret }),
    }),
  )
  const token = session.body.data.access_token as string
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    readResponse(
      await fetch(`${service.url}${path}`, {
        method,
        headers: {
          ...headers,
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
  return { service, logs, api, databaseUrl }
}

/** A company with an entity, a recipient with the US ACH example account, and a funding account. */
const payer = async ({ api }: Started) => {
  const cid = (await api("POST", "/api/v1/companies", { name: "Acme", country: "US", default_currency: "USD" })).body
    .data.id
  const eid = (await api("POST", `/api/v1/companies/${cid}/entities`, { name: "Acme", country_alpha2: "US" })).body.data
    .id
  const rid = (await api("POST", `/api/v1/companies/${cid}/recipients`, { name: "Supplier" })).body.data.id
  const account = await api("POST", `/api/v1/companies/${cid}/recipients/${rid}/bank_accounts`, {
    entity_id: eid,
    beneficiary_details: sandboxExamples.US_ACH,
  })
  const funding = await api("POST", `/api/v1/sandbox/entities/${eid}/funding_accounts`, {})
  const quote = async (amount: number) =>
    (
      await api("POST", `/api/v1/companies/${cid}/quotes`, {
        quote: {
          from_profile_id: funding.body.data.payment_profiles[0].id,
          to_profile_id: account.body.data.payment_profiles[0].id,
          instructed_amount: { amount, currency: "USD" },
        },
      })
    ).body.data.id as string
  const pay = async (amount: number, key: string) =>
    api("POST", `/api/v1/companies/${cid}/payments`, {
      payment_instruction: { payment_quote_id: await quote(amount), reason: "goods_purchased", idempotency_key: key },
    })
  return { cid, eid, quote, pay }
}

/** Polls until `check` holds: the background runner works on real time. */
const eventually = async (check: () => Promise<boolean>, timeoutMs = 5000) => {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not reached in time")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe("the service in sandbox mode", () => {
  let started: Started
  beforeAll(async () => {
    started = await start({})
  })
  afterAll(() => started.service.close())

  it("executes a payment in the background right after it is created", async () => {
    const { cid, pay } = await payer(started)
    const payment = await pay(12.5, "background-1")
    expect(payment.status).toBe(201)
    await eventually(
      async () =>
        (await started.api("GET", `/api/v1/companies/${cid}/payments/${payment.body.data.id}`)).body.data.status ===
        "completed",
    )
    expect(started.logs.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ msg: "job run", kind: "execute_payment", outcome: "done" }),
    )
    expect(started.logs.join("\n")).not.toContain(sandboxExamples.US_ACH.bank_details.account_number)
  })

  it("moves its sandbox clock with the helper, so a quote expires without waiting", async () => {
    const { cid, quote } = await payer(started)
    const quoteId = await quote(5)
    const before = Date.now()
    const advanced = await started.api("POST", "/api/v1/sandbox/clock/advance", { seconds: 900 })
    expect(advanced.status).toBe(200)
    const now = Date.parse(advanced.body.data.now)
    expect(now).toBeGreaterThanOrEqual(before + 900_000)
    expect(now).toBeLessThan(Date.now() + 900_000 + 1000)
    expectError(
      await started.api("POST", `/api/v1/companies/${cid}/payments`, {
        payment_instruction: { payment_quote_id: quoteId, reason: "taxes", idempotency_key: "expired" },
      }),
      422,
      "payment_quote_id",
      "Quote has expired",
    )
    expect(started.logs.some((line) => line.includes(sandboxProvidersWarning))).toBe(false)
  })

  it("issues hosted-page tokens under the secret it keeps in its database, which are no bearer tokens", async () => {
    // The secret is read from storage the first time a token is signed: not inside the token's
    // own transaction, which SQLite's one connection would never let finish.
    const { cid, eid } = await payer(started)
    await started.api("POST", `/api/v1/companies/${cid}/entities/${eid}/features`, {
      feature_identifier: "multi_currency_account",
    })
    const issued = await started.api("POST", "/api/v1/hosted_page_tokens", {
      purpose: "funding_accounts",
      entity_id: eid,
    })
    expect(issued.status, issued.text).toBe(201)
    const asBearer = await readResponse(
      await fetch(`${started.service.url}/api/v1/companies`, {
        headers: { authorization: `Bearer ${issued.body.data.token}` },
      }),
    )
    expectError(asBearer, 401, "token", "Missing or invalid token")
  }, 10_000)

  it("documents the sandbox helpers in its OpenAPI document", async () => {
    const document = (await readResponse(await fetch(`${started.service.url}/openapi.json`))).body
    expect(document.paths["/api/v1/sandbox/clock/advance"].post.operationId).toBe("sandboxAdvanceClock")
    expect(document.paths["/api/v1/sandbox/entities/{eid}/funding_accounts"].post.operationId).toBe(
      "sandboxLinkFundingAccount",
    )
  })
})

describe("shutting down", () => {
  it("lets the job in flight finish before it closes the database", async () => {
    let armed = false
    let inFlight: () => void = () => undefined
    const submitting = new Promise<void>((resolve) => {
      inFlight = resolve
    })
    const provider = createSandboxPaymentProvider({
      latencyMs: 300,
      sleep: (ms) => {
        if (!armed) return Promise.resolve()
        inFlight()
        return new Promise((resolve) => setTimeout(resolve, ms))
      },
    })
    const file = "shutdown.sqlite"
    const started = await start({}, provider, file)
    const { pay } = await payer(started)
    armed = true
    const payment = await pay(33, "in-flight")
    await submitting
    await started.service.close()
    const storage = await openStorageFromUrl(`sqlite:${join(folder, file)}`)
    try {
      const row = await storage.transaction((tx) => tx.payments.findById(payment.body.data.id))
      expect(row?.status).toBe("completed")
    } finally {
      await storage.close()
    }
  })
})

describe("the service outside sandbox mode", () => {
  let started: Started
  beforeAll(async () => {
    started = await start({ PAYMENTS_SANDBOX: "false", PAYMENTS_JWT_SECRET: "x".repeat(40) })
  })
  afterAll(() => started.service.close())

  it("warns that the sandbox payment provider and bank linker are still the ones used", () => {
    const warning = started.logs.map((line) => JSON.parse(line)).find((line) => line.msg === sandboxProvidersWarning)
    expect(warning).toMatchObject({ level: 40 })
  })

  it("answers the sandbox helpers 404 path Not found, like an unknown route", async () => {
    expectError(await started.api("POST", "/api/v1/sandbox/clock/advance", { seconds: 1 }), 404, "path", "Not found")
    expectError(
      await started.api("POST", "/api/v1/sandbox/entities/ent_x/funding_accounts", {}),
      404,
      "path",
      "Not found",
    )
    const anonymous = await readResponse(
      await fetch(`${started.service.url}/api/v1/sandbox/clock/advance`, { method: "POST" }),
    )
    expect(anonymous.status).toBe(401)
    const document = (await readResponse(await fetch(`${started.service.url}/openapi.json`))).body
    expect(Object.keys(document.paths).filter((path) => path.includes("sandbox"))).toEqual([])
    expect(document.paths["/api/v1/companies/{cid}/payments"].post.operationId).toBe("createPayment")
  })
})

describe("the service's idempotency fingerprints", () => {
  it("are keyed by its JWT secret: PAYMENTS_JWT_SECRET, or the one sandbox mode generates and keeps in its file", async () => {
    const configured = "a-configured-jwt-secret-0123456789abcdef"
    for (const env of [{ PAYMENTS_JWT_SECRET: configured }, {}] as Array<Record<string, string>>) {
      const started = await start(env)
      try {
        const acme = { name: "Acme", country: "US", default_currency: "USD" }
        const first = await started.api("POST", "/api/v1/companies", acme, { "Idempotency-Key": "k-1" })
        expect(first.status).toBe(201)
        const again = await started.api("POST", "/api/v1/companies", acme, { "Idempotency-Key": "k-1" })
        expect({ status: again.status, replayed: again.headers.get("idempotent-replayed") }).toEqual({
          status: 201,
          replayed: "true",
        })
        const { engine } = started.service
        const secret = env.PAYMENTS_JWT_SECRET ?? readFileSync(join(folder, "server-secret"), "utf8").trim()
        const workspaceId = (await engine.access.ensureWorkspace(bootstrapWorkspace)).id
        const storage = await openStorageFromUrl(started.databaseUrl)
        const row = await storage.transaction((tx) => tx.idempotency.find(workspaceId, "k-1"))
        await storage.close()
        const key = await deriveFingerprintKey(secret)
        expect(row?.fingerprint).toBe(
          await requestFingerprint(key, { method: "POST", path: "/api/v1/companies", body: acme }),
        )
      } finally {
        await started.service.close()
      }
    }
  })
})
