import { readFile } from "node:fs/promises"
import { memoryRateLimitStore } from "@payments-engine/adapters"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { webhookSignatureHeaders } from "@payments-engine/core"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { generousRateLimits, startTestService, type TestService } from "../../http-koa/test/support/test-service.ts"
import { generatedPath, generatedTypes } from "../scripts/generated-types.ts"
import {
  createPaymentsClient,
  dataOf,
  eachItem,
  eachPage,
  PaymentsApiError,
  type PaymentsClientOptions,
  verifyWebhook,
} from "../src/index.ts"

/*
 * The typed client against the real service on SQLite over a socket: sessions and their refresh,
 * idempotency keys, retries on 429, typed errors, paging and webhook signatures.
 */

const sqlite = openTestSqlite()
const running: Array<TestService> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()))
})
afterAll(sqlite.close)

const tokenLifetimeSeconds = 600

const start = async (options: Partial<Parameters<typeof startTestService>[0]> = {}) => {
  const service = await startTestService({ storage: await sqlite.factory(), tokenLifetimeSeconds, ...options })
  running.push(service)
  return service
}

/** What the client sent, as the service received it. */
interface Sent {
  readonly method: string
  readonly path: string
  readonly headers: Headers
}

/** A client of a fresh API key in `workspace`, recording every request it sends. */
const clientOf = async (service: TestService, workspace: string, options: Partial<PaymentsClientOptions> = {}) => {
  const key = await service.engine.access.createApiKey({ workspace, scope: "write" })
  const sent: Array<Sent> = []
  const client = createPaymentsClient({
    baseUrl: service.url,
    apiKey: key.api_key,
    apiSecret: key.api_secret,
    fetch: (request) => {
      sent.push({ method: request.method, path: new URL(request.url).pathname, headers: request.headers })
      return fetch(request)
    },
    ...options,
  })
  const sessions = () => sent.filter((s) => s.path === "/api/v1/sessions").length
  return { client, sent, sessions }
}

const acme = { name: "Acme Inc", country: "US", default_currency: "USD" }

describe("the typed client", () => {
  it("opens a session on the first request and a new one shortly before the token expires", async () => {
    const service = await start()
    const { client, sessions } = await clientOf(service, "client-refresh", {
      now: () => service.clock.now().getTime(),
    })
    await dataOf(client.GET("/api/v1/companies"))
    await dataOf(client.GET("/api/v1/companies"))
    expect(sessions()).toBe(1)
    // Ten seconds before expiry: inside the client's margin, so it does not risk the old token.
    service.clock.advance((tokenLifetimeSeconds - 10) * 1000)
    const { data } = await dataOf(client.GET("/api/v1/companies"))
    expect(data).toEqual([])
    expect(sessions()).toBe(2)
  })

  it("opens a new session once when a request comes back 401, and sends the request again", async () => {
    const service = await start()
    // The client's own clock (the real one) does not see the service's time pass.
    const { client, sent, sessions } = await clientOf(service, "client-401")
    await dataOf(client.GET("/api/v1/companies"))
    service.clock.advance((tokenLifetimeSeconds + 1) * 1000)
    const { data: company } = await dataOf(client.POST("/api/v1/companies", { body: acme }))
    expect(company.name).toBe("Acme Inc")
    expect(sessions()).toBe(2)
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      "POST /api/v1/sessions",
      "GET /api/v1/companies",
      "POST /api/v1/companies",
      "POST /api/v1/sessions",
      "POST /api/v1/companies",
    ])
    const [refused, retried] = sent.filter((s) => s.method === "POST" && s.path === "/api/v1/companies")
    expect(retried?.headers.get("Idempotency-Key")).toBe(refused?.headers.get("Idempotency-Key"))
  })

  it("opens one session for requests sent at once, and one new one when they find it expiring", async () => {
    const service = await start()
    const { client, sessions } = await clientOf(service, "client-concurrent", {
      now: () => service.clock.now().getTime(),
    })
    const three = () => Promise.all([1, 2, 3].map(() => dataOf(client.GET("/api/v1/companies"))))
    await three()
    expect(sessions()).toBe(1)
    service.clock.advance((tokenLifetimeSeconds - 10) * 1000)
    await three()
    expect(sessions()).toBe(2)
  })

  it("creates a company and a recipient, each POST with an idempotency key of its own", async () => {
    const service = await start()
    const { client, sent } = await clientOf(service, "client-create")
    const { data: company } = await dataOf(client.POST("/api/v1/companies", { body: acme }))
    expect(company).toMatchObject({ name: "Acme Inc", country: "US", default_currency: "USD" })
    const { data: recipient } = await dataOf(
      client.POST("/api/v1/companies/{cid}/recipients", {
        params: { path: { cid: company.id } },
        body: { name: "Jane Supplier", email: "jane@example.com" },
      }),
    )
    expect(recipient).toMatchObject({ name: "Jane Supplier", email: "jane@example.com" })
    const keys = sent.filter((s) => s.path !== "/api/v1/sessions").map((s) => s.headers.get("Idempotency-Key"))
    expect(keys).toHaveLength(2)
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(keys[0]).not.toBe(keys[1])
  })

  it("sends the caller's idempotency key, so a write sent again gets the same answer", async () => {
    const service = await start()
    const { client } = await clientOf(service, "client-idempotent")
    const create = () =>
      dataOf(client.POST("/api/v1/companies", { body: acme, headers: { "Idempotency-Key": "create-acme-1" } }))
    const first = await create()
    const again = await create()
    expect(again).toEqual(first)
    expect(await dataOf(client.GET("/api/v1/companies"))).toMatchObject({ meta: { total_records: 1 } })
  })

  it("waits as long as Retry-After says when refused with 429, then succeeds", async () => {
    const service = await start({
      // One request a second: the 429's Retry-After is 1 s, the only wait of this file.
      rateLimits: {
        limits: { ...generousRateLimits, general: 1 },
        store: {
          counter: (window) => memoryRateLimitStore().counter({ ...window, windowSeconds: 1 }),
          close: async () => undefined,
        },
      },
    })
    const { client, sent } = await clientOf(service, "client-429")
    const started = Date.now()
    await dataOf(client.GET("/api/v1/companies"))
    const { data } = await dataOf(client.GET("/api/v1/companies"))
    expect(data).toEqual([])
    const companies = sent.filter((s) => s.path === "/api/v1/companies")
    expect(companies.length).toBe(3)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
  })

  it("does not retry a write it cannot send twice safely", async () => {
    const service = await start()
    let calls = 0
    const { client } = await clientOf(service, "client-unsafe", {
      backoffMs: 1,
      fetch: (request) => {
        if (request.method === "DELETE") {
          calls++
          return Promise.reject(new TypeError("fetch failed"))
        }
        return fetch(request)
      },
    })
    const { data: company } = await dataOf(client.POST("/api/v1/companies", { body: acme }))
    await expect(client.DELETE("/api/v1/companies/{id}", { params: { path: { id: company.id } } })).rejects.toThrow(
      "fetch failed",
    )
    expect(calls).toBe(1)
  })

  it("retries a request lost to a network error, with the same idempotency key", async () => {
    const service = await start()
    const keys: Array<string | null> = []
    let failures = 2
    const { client } = await clientOf(service, "client-network", {
      backoffMs: 1,
      fetch: (request) => {
        if (new URL(request.url).pathname === "/api/v1/companies") {
          keys.push(request.headers.get("Idempotency-Key"))
          if (failures-- > 0) return Promise.reject(new TypeError("fetch failed"))
        }
        return fetch(request)
      },
    })
    const { data: company } = await dataOf(client.POST("/api/v1/companies", { body: acme }))
    expect(company.name).toBe("Acme Inc")
    expect(keys).toHaveLength(3)
    expect(new Set(keys).size).toBe(1)
  })

  it("throws a PaymentsApiError with the status and the API's field errors", async () => {
    const service = await start()
    const { client } = await clientOf(service, "client-errors")
    const refused = await client
      .POST("/api/v1/companies", { body: { ...acme, country: "Atlantis" } })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PaymentsApiError)
    const error = refused as PaymentsApiError
    expect(error.status).toBe(422)
    expect(error.errors).toEqual([{ field: "country", message: expect.any(String) }])
    expect(error.requestId).toEqual(expect.any(String))
  })

  it("goes through every page of a list", async () => {
    const service = await start()
    const { client } = await clientOf(service, "client-paging")
    for (const name of ["A", "B", "C", "D", "E"]) {
      await dataOf(client.POST("/api/v1/companies", { body: { ...acme, name: `Company ${name}` } }))
    }
    const page = (page: number) => dataOf(client.GET("/api/v1/companies", { params: { query: { page, per_page: 2 } } }))
    const pages: Array<number> = []
    for await (const companies of eachPage(page)) pages.push(companies.length)
    expect(pages).toEqual([2, 2, 1])
    const names: Array<string> = []
    for await (const company of eachItem(page)) names.push(company.name)
    expect(names.sort()).toEqual(["Company A", "Company B", "Company C", "Company D", "Company E"])
  })

  it("reads the workspace's events, filtered and one by one, typed", async () => {
    const service = await start()
    const { client } = await clientOf(service, "client-events")
    const { data: company } = await dataOf(client.POST("/api/v1/companies", { body: acme }))
    const { data: entity } = await dataOf(
      client.POST("/api/v1/companies/{cid}/entities", {
        params: { path: { cid: company.id } },
        body: { name: "Acme", country_alpha2: "US" },
      }),
    )
    await dataOf(
      client.PATCH("/api/v1/companies/{cid}/entities/{id}", {
        params: { path: { cid: company.id, id: entity.id } },
        body: { name: "Acme Renamed" },
      }),
    )
    const page = (page: number) =>
      dataOf(
        client.GET("/api/v1/events", { params: { query: { page, type: "entity.created", resource_id: entity.id } } }),
      )
    const events: Array<{ id: string; type: string; resource_id: string; payload: Record<string, unknown> }> = []
    for await (const event of eachItem(page)) events.push(event)
    expect(events.map((event) => [event.type, event.resource_id])).toEqual([["entity.created", entity.id]])
    const { data: one } = await dataOf(client.GET("/api/v1/events/{id}", { params: { path: { id: events[0]!.id } } }))
    expect(one.payload).toEqual(events[0]!.payload)
  })

  it("throws the webhook routes' errors with their code, their details as errors, and the raw body", async () => {
    const service = await start()
    const { client } = await clientOf(service, "client-webhook-errors")
    const { data: company } = await dataOf(client.POST("/api/v1/companies", { body: acme }))
    const invalid = (await client
      .POST("/api/v1/companies/{cid}/webhook_endpoints", {
        params: { path: { cid: company.id } },
        body: { url: "ftp://example.com/hooks", event_names: ["PaymentEvents::CompletedEvent"] },
      })
      .catch((error: unknown) => error)) as PaymentsApiError
    expect(invalid).toBeInstanceOf(PaymentsApiError)
    expect(invalid.status).toBe(422)
    expect(invalid.code).toBe("validation_error")
    expect(invalid.errors).toEqual([{ field: "url", message: expect.any(String) }])
    expect(invalid.message).toBe(`422: url: ${invalid.errors[0]?.message}`)
    expect(JSON.parse(invalid.body)).toEqual({
      error: { code: "validation_error", message: invalid.errors[0]?.message, details: invalid.errors },
    })
    const missing = (await client
      .GET("/api/v1/webhook_endpoints/{id}", { params: { path: { id: "we_01M85T3DJ0S46W8RG9ZH1QYV9Z" } } })
      .catch((error: unknown) => error)) as PaymentsApiError
    expect(missing).toMatchObject({ status: 404, code: "not_found" })
    expect(missing.errors).toEqual([{ field: expect.any(String), message: expect.any(String) }])
    expect(missing.requestId).toEqual(expect.any(String))
  })

  it("keeps the raw body of an error the API did not write, and of one it did", async () => {
    const service = await start()
    const page = "<html><body>502 Bad Gateway</body></html>"
    const { client } = await clientOf(service, "client-proxy", {
      maxRetries: 0,
      fetch: (request) =>
        new URL(request.url).pathname === "/api/v1/companies" && request.method === "GET"
          ? Promise.resolve(new Response(page, { status: 502, headers: { "Content-Type": "text/html" } }))
          : fetch(request),
    })
    const proxied = (await client.GET("/api/v1/companies").catch((error: unknown) => error)) as PaymentsApiError
    expect(proxied).toMatchObject({ status: 502, errors: [], code: undefined, body: page })
    const refused = (await client
      .POST("/api/v1/companies", { body: { ...acme, country: "Atlantis" } })
      .catch((error: unknown) => error)) as PaymentsApiError
    expect(JSON.parse(refused.body)).toEqual({ errors: refused.errors })
    expect(refused.code).toBeUndefined()
  })

  it("types and calls the sandbox helpers: funding account, feature status, test clock", async () => {
    const service = await start({ sandbox: true })
    const { client } = await clientOf(service, "client-sandbox")
    const { data: company } = await dataOf(client.POST("/api/v1/companies", { body: acme }))
    const cid = company.id
    const { data: entity } = await dataOf(
      client.POST("/api/v1/companies/{cid}/entities", {
        params: { path: { cid } },
        body: { name: "Acme Inc", country_alpha2: "US" },
      }),
    )
    const { data: funding } = await dataOf(
      client.POST("/api/v1/sandbox/entities/{eid}/funding_accounts", {
        params: { path: { eid: entity.id } },
        body: {},
      }),
    )
    expect(funding).toMatchObject({ owner_id: entity.id, currency: "USD" })
    const { data: feature } = await dataOf(
      client.POST("/api/v1/companies/{cid}/entities/{eid}/features", {
        params: { path: { cid, eid: entity.id } },
        body: { feature_identifier: "multi_currency_account" },
      }),
    )
    const { data: reviewed } = await dataOf(
      client.POST("/api/v1/sandbox/features/{application_id}/status", {
        params: { path: { application_id: feature.application_id } },
        body: { status: "SUBMITTED" },
      }),
    )
    expect(reviewed.status).toBe("SUBMITTED")
    const before = service.clock.now().getTime()
    const { data: moved } = await dataOf(client.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 90 } }))
    expect(moved).toEqual({ now: new Date(before + 90_000).toISOString(), jobs_run: expect.any(Number) })
    // Checked by tsc: the sandbox bodies are as typed as the rest.
    const misspelt = () =>
      // @ts-expect-error `second` is not a field of ClockAdvance
      client.POST("/api/v1/sandbox/clock/advance", { body: { second: 90 } })
    expect(misspelt).toBeTypeOf("function")
  })
})

describe("verifyWebhook", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
  const body = JSON.stringify({ event: "PaymentEvents::CompletedEvent", data: { id: "pay_1" } })
  const sentAt = 1767225600
  const at = (seconds: number) => () => (sentAt + seconds) * 1000
  /** A delivery's headers, from the engine's own signer, as the service sends them. */
  const signed = (secrets: [string, ...string[]] = [secret]) =>
    webhookSignatureHeaders({ body, eventId: "evt_1", timestamp: sentAt, secrets })

  it("accepts a delivery signed by the service, as text or bytes, with Fetch headers or Node's lower-case record", async () => {
    const headers = await signed()
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
    for (const received of [headers, lower, new Headers(headers)]) {
      expect(await verifyWebhook(body, received, secret, { now: at(0) })).toBe(true)
      expect(await verifyWebhook(new TextEncoder().encode(body), received, secret, { now: at(0) })).toBe(true)
    }
  })

  it("accepts what the Standard Webhooks library signs, and the endpoint's old secret after a rotation", async () => {
    const { Webhook } = await import("standardwebhooks")
    const date = new Date(sentAt * 1000)
    const signature = new Webhook(secret).sign("msg_1", date, body)
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(sentAt), "webhook-signature": signature }
    expect(await verifyWebhook(body, headers, secret, { now: at(0) })).toBe(true)
    const rotated = await signed(["whsec_bmV3c2VjcmV0bmV3c2VjcmV0bmV3c2VjcmV0", secret])
    expect(await verifyWebhook(body, rotated, secret, { now: at(0) })).toBe(true)
  })

  it("refuses a changed body, another secret, a changed id or timestamp, and a truncated signature", async () => {
    const headers = await signed()
    const now = { now: at(0) }
    expect(await verifyWebhook(body.replace("pay_1", "pay_2"), headers, secret, now)).toBe(false)
    expect(await verifyWebhook(body, headers, "whsec_b3RoZXJzZWNyZXRvdGhlcnNlY3JldA==", now)).toBe(false)
    expect(await verifyWebhook(body, { ...headers, "webhook-id": "evt_2" }, secret, now)).toBe(false)
    expect(await verifyWebhook(body, { ...headers, "webhook-timestamp": String(sentAt + 1) }, secret, now)).toBe(false)
    const truncated = { ...headers, "webhook-signature": headers["webhook-signature"].slice(0, -4) }
    expect(await verifyWebhook(body, truncated, secret, now)).toBe(false)
    expect(await verifyWebhook(body, {}, secret, now)).toBe(false)
  })

  it("refuses a delivery older or newer than the tolerance, five minutes by default: a replay", async () => {
    const headers = await signed()
    expect(await verifyWebhook(body, headers, secret, { now: at(300) })).toBe(true)
    expect(await verifyWebhook(body, headers, secret, { now: at(301) })).toBe(false)
    expect(await verifyWebhook(body, headers, secret, { now: at(-300) })).toBe(true)
    expect(await verifyWebhook(body, headers, secret, { now: at(-301) })).toBe(false)
    expect(await verifyWebhook(body, headers, secret, { now: at(3600), toleranceSeconds: 3600 })).toBe(true)
    expect(await verifyWebhook(body, headers, secret, { now: at(3601), toleranceSeconds: 3600 })).toBe(false)
  })

  it("refuses a captured delivery replayed with its timestamped headers stripped, unless the legacy header is allowed", async () => {
    const headers = await signed()
    const { "webhook-id": _id, "webhook-timestamp": _timestamp, "webhook-signature": _signature, ...stripped } = headers
    // A day later: far outside the window the stripped headers carried.
    const later = { now: at(86_400) }
    expect(await verifyWebhook(body, stripped, secret, later)).toBe(false)
    expect(await verifyWebhook(body, stripped, secret, { ...later, allowLegacySignature: true })).toBe(true)
    expect(
      await verifyWebhook(body.replace("pay_1", "pay_2"), stripped, secret, { ...later, allowLegacySignature: true }),
    ).toBe(false)
    // With the timestamped headers there, they decide: an old one is not saved by Service-Signature.
    expect(await verifyWebhook(body, headers, secret, { ...later, allowLegacySignature: true })).toBe(false)
  })
})

describe("the generated types", () => {
  it("are those a fresh generation from the service's OpenAPI document writes", async () => {
    expect(await readFile(generatedPath, "utf8"), "run `npm run generate -w packages/client`").toBe(
      await generatedTypes(),
    )
  })

  it("make a misspelled request field a type error (checked by tsc, never run)", () => {
    const misspelled = (client: ReturnType<typeof createPaymentsClient>) =>
      client.POST("/api/v1/companies", {
        body: {
          name: "Acme Inc",
          country: "US",
          // @ts-expect-error `default_curency` is not a field of CompanyCreate
          default_curency: "EUR",
        },
      })
    expect(misspelled).toBeTypeOf("function")
  })
})
