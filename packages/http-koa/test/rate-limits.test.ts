import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import type { RateLimitSettings } from "../src/binding/rate-limits/rate-limit-settings.ts"
import { expectError } from "./support/expectations.ts"
import {
  acme,
  generousRateLimits,
  startTestService,
  type TestResponse,
  type TestService,
} from "./support/test-service.ts"

/*
 * DECISIONS "Rate limits", over a real socket with small configured limits: the headers on every
 * limited route, the 429 past a limit, and what each limit counts under. No test waits for a
 * window to end.
 */

const sqlite = openTestSqlite()
afterAll(sqlite.close)

const running: Array<TestService> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()))
})

const start = async (limits: Partial<RateLimitSettings>, trustedProxyHops?: number) => {
  const service = await startTestService({
    storage: await sqlite.factory(),
    rateLimits: { limits: { ...generousRateLimits, ...limits } },
    ...(trustedProxyHops === undefined ? {} : { trustedProxyHops }),
  })
  running.push(service)
  return service
}

/** The `X-RateLimit-*` headers of an answer, as numbers. */
const limitHeaders = (response: TestResponse) => ({
  limit: Number(response.headers.get("x-ratelimit-limit")),
  remaining: Number(response.headers.get("x-ratelimit-remaining")),
  reset: Number(response.headers.get("x-ratelimit-reset")),
})

/** The headers tell of a limit of `limit` with `remaining` left, ending within the minute. */
const expectLimit = (response: TestResponse, limit: number, remaining: number) => {
  const headers = limitHeaders(response)
  expect(headers).toMatchObject({ limit, remaining })
  const now = Date.now() / 1000
  expect(Number.isInteger(headers.reset)).toBe(true)
  expect(headers.reset).toBeGreaterThanOrEqual(Math.floor(now))
  expect(headers.reset).toBeLessThanOrEqual(Math.ceil(now) + 60)
}

/** The spec's 429, with the headers of the spent limit and a `Retry-After` within the minute. */
const expectRefused = (response: TestResponse, limit: number) => {
  expectError(response, 429, "base", "Rate limit exceeded. Please try again later.")
  expectLimit(response, limit, 0)
  const retryAfter = Number(response.headers.get("retry-after"))
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
}

/** One request of each limited kind but sessions; the ids need not exist, every answer counts. */
const calls = {
  general: (service: TestService, token: string) => service.request("GET", "/api/v1/companies", { token }),
  quotes: (service: TestService, token: string) =>
    service.request("POST", "/api/v1/companies/cmp_unknown/quotes", { token, body: {} }),
  payments: (service: TestService, token: string) =>
    service.request("POST", "/api/v1/companies/cmp_unknown/payments", { token, body: {} }),
  multiCurrencyList: (service: TestService, token: string) =>
    service.request("GET", "/api/v1/companies/cmp_unknown/entities/ent_unknown/features", { token }),
  multiCurrencyEnable: (service: TestService, token: string) =>
    service.request("POST", "/api/v1/companies/cmp_unknown/entities/ent_unknown/features", {
      token,
      body: { feature_identifier: "multi_currency_account" },
    }),
  multiCurrencyEntityToken: (service: TestService, token: string) =>
    service.request("POST", "/api/v1/companies/cmp_unknown/entities/ent_unknown/hosted_page_tokens", {
      token,
      body: { feature_identifier: "multi_currency_account", purpose: "onboarding", application_id: "app_unknown" },
    }),
  multiCurrencyFundingToken: (service: TestService, token: string) =>
    service.request("POST", "/api/v1/hosted_page_tokens", {
      token,
      body: { purpose: "funding_accounts", entity_id: "ent_unknown" },
    }),
} as const

const signInBody = async (service: TestService, workspace: string) => {
  const key = await service.engine.access.createApiKey({ workspace })
  return { api_key: key.api_key, api_secret: key.api_secret }
}

describe("rate limits per API key and workspace", () => {
  it("tell every answer of every limited route its limit, what is left and when it resets", async () => {
    const service = await start({ general: 7, quotes: 5, payments: 4, multiCurrency: 3 })
    const token = await service.signIn("acme")
    const created = await service.request("POST", "/api/v1/companies", { token, body: acme })
    expect(created.status).toBe(201)
    expectLimit(created, 7, 6)
    expectLimit(await calls.general(service, token), 7, 5)
    expectLimit(await calls.quotes(service, token), 5, 4)
    expectLimit(await calls.quotes(service, token), 5, 3)
    expectLimit(await calls.payments(service, token), 4, 3)
    expectLimit(await calls.multiCurrencyList(service, token), 3, 2)
    expectLimit(await calls.multiCurrencyEnable(service, token), 3, 1)
    // Outside the API's limits: health and the OpenAPI document.
    for (const path of ["/health", "/openapi.json"]) {
      const response = await service.request("GET", path)
      expect(response.status).toBe(200)
      expect(response.headers.get("x-ratelimit-limit")).toBeNull()
    }
  })

  it.each([
    ["general", "general", calls.general],
    ["quotes", "quotes", calls.quotes],
    ["payments", "payments", calls.payments],
    ["multi-currency (list)", "multiCurrency", calls.multiCurrencyList],
    ["multi-currency (enable)", "multiCurrency", calls.multiCurrencyEnable],
    ["multi-currency (entity hosted-page token)", "multiCurrency", calls.multiCurrencyEntityToken],
    ["multi-currency (funding hosted-page token)", "multiCurrency", calls.multiCurrencyFundingToken],
  ] as const)("answer 429 with Retry-After once the %s limit is spent, and keep refusing", async (_, name, call) => {
    const service = await start({ [name]: 3 })
    const token = await service.signIn("acme")
    for (let i = 0; i < 3; i++) {
      const response = await call(service, token)
      expect(response.status).not.toBe(429)
      expectLimit(response, 3, 2 - i)
    }
    expectRefused(await call(service, token), 3)
    expectRefused(await call(service, token), 3)
  })

  it("count each limit apart: a spent limit leaves the others whole", async () => {
    const service = await start({ general: 5, quotes: 2, payments: 2, multiCurrency: 2 })
    const token = await service.signIn("acme")
    await calls.quotes(service, token)
    await calls.quotes(service, token)
    expectRefused(await calls.quotes(service, token), 2)
    expectLimit(await calls.payments(service, token), 2, 1)
    expectLimit(await calls.multiCurrencyList(service, token), 2, 1)
    const general = await calls.general(service, token)
    expect(general.status).toBe(200)
    expectLimit(general, 5, 4)
    // The multi-currency limit spent in turn leaves the quotes refused and the general one counting.
    await calls.multiCurrencyEnable(service, token)
    expectRefused(await calls.multiCurrencyList(service, token), 2)
    expectRefused(await calls.quotes(service, token), 2)
    expectLimit(await calls.general(service, token), 5, 3)
  })

  it("count per API key and workspace: another key, or another workspace, is not affected", async () => {
    const service = await start({ general: 2 })
    const first = await service.signIn("acme")
    const sameKeyAgain = await service.request("POST", "/api/v1/sessions", {
      body: await signInBody(service, "acme"),
    })
    const otherKeySameWorkspace = await service.signIn("acme")
    const otherWorkspace = await service.signIn("globex")
    await calls.general(service, first)
    await calls.general(service, first)
    expectRefused(await calls.general(service, first), 2)
    for (const token of [otherKeySameWorkspace, otherWorkspace, sameKeyAgain.body.data.access_token]) {
      const response = await calls.general(service, token)
      expect(response.status).toBe(200)
      expectLimit(response, 2, 1)
    }
  })

  it("follow the key, not the token: a second token of a spent key is refused too", async () => {
    const service = await start({ general: 2 })
    const body = await signInBody(service, "acme")
    const session = () => service.request("POST", "/api/v1/sessions", { body })
    const first = (await session()).body.data.access_token
    await calls.general(service, first)
    await calls.general(service, first)
    expectRefused(await calls.general(service, first), 2)
    service.clock.advance(1000)
    const second = (await session()).body.data.access_token
    expect(second).not.toBe(first)
    expectRefused(await calls.general(service, second), 2)
  })
})

describe("the rate limits of POST /api/v1/sessions", () => {
  const post = (service: TestService, body: unknown, forwardedFor?: string) =>
    service.request("POST", "/api/v1/sessions", {
      body,
      ...(forwardedFor === undefined ? {} : { headers: { "X-Forwarded-For": forwardedFor } }),
    })

  it("count failures per API key and client address: a stranger's wrong secrets never lock out the owner", async () => {
    const service = await start({ failedSessions: 20, sessionsPerAddress: 100 }, 1)
    const body = await signInBody(service, "acme")
    const attacker = "198.51.100.1"
    for (let i = 0; i < 20; i++) {
      const guess = await post(service, { ...body, api_secret: `sk_guess_${i}` }, attacker)
      expectError(guess, 401, "api_key", "Invalid API key or secret")
      expectLimit(guess, 20, 19 - i)
    }
    for (let i = 20; i < 25; i++)
      expectRefused(await post(service, { ...body, api_secret: `sk_guess_${i}` }, attacker), 20)
    // The right secret from the attacker's address is refused too: that address's attempts are spent.
    expectRefused(await post(service, body, attacker), 20)
    const owner = await post(service, body, "192.0.2.1")
    expect(owner.status).toBe(201)
    expectRefused(await post(service, body, attacker), 20)
    // Another key from the attacker's address still has its own attempts.
    expect((await post(service, await signInBody(service, "acme"), attacker)).status).toBe(201)
  })

  it("count every attempt at once, so guesses sent together cannot pass the limit", async () => {
    const service = await start({ failedSessions: 3, sessionsPerAddress: 100 })
    const body = await signInBody(service, "acme")
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(service, { ...body, api_secret: `sk_guess_${i}` })),
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429])
  })

  it("forget a key's failures from an address once it signs in there, and count only wrong secrets", async () => {
    const service = await start({ failedSessions: 3, sessionsPerAddress: 100 })
    const body = await signInBody(service, "acme")
    const guess = (i: number) => post(service, { ...body, api_secret: `sk_guess_${i}` })
    expect([(await guess(1)).status, (await guess(2)).status]).toEqual([401, 401])
    expect((await post(service, body)).status).toBe(201)
    // A body the route refuses for another reason spends nothing.
    for (let i = 0; i < 5; i++) expect((await post(service, { api_key: body.api_key })).status).toBe(400)
    for (let i = 3; i < 6; i++) expect((await guess(i)).status).toBe(401)
    expectRefused(await guess(6), 3)
  })

  it("count per client address across keys, whatever the body", async () => {
    const service = await start({ failedSessions: 100, sessionsPerAddress: 3 })
    await post(service, { api_key: "pk_guess_1", api_secret: "x" })
    await post(service, "not an object")
    const third = await post(service, { api_key: "pk_guess_2", api_secret: "x" })
    expect(third.status).toBe(401)
    expectLimit(third, 3, 0)
    const refused = await post(service, await signInBody(service, "acme"))
    expectRefused(refused, 3)
    // Without trusted proxies X-Forwarded-For is anyone's to write, and changes nothing.
    expectRefused(await post(service, await signInBody(service, "acme"), "203.0.113.9"), 3)
  })

  it("behind a trusted proxy, count the address it forwarded, not what the client wrote before it", async () => {
    const service = await start({ failedSessions: 100, sessionsPerAddress: 2 }, 1)
    const from = (client: string, spoofed = "") =>
      post(service, { api_key: "pk_guess", api_secret: "x" }, `${spoofed}${client}`)
    await from("192.0.2.1", "10.0.0.1, ")
    await from("192.0.2.1", "10.0.0.2, ")
    expectRefused(await from("192.0.2.1", "10.0.0.3, "), 2)
    expect((await from("192.0.2.2")).status).toBe(401)
    // One IPv6 subscriber's /64 is one client.
    await from("2001:db8:1:2::1")
    await from("2001:db8:1:2::ffff")
    expectRefused(await from("2001:db8:1:2:abcd::1"), 2)
    expect((await from("2001:db8:1:3::1")).status).toBe(401)
  })

  it("tell of the limit with fewer requests left", async () => {
    const keyTighter = await start({ failedSessions: 2, sessionsPerAddress: 10 })
    expectLimit(await post(keyTighter, await signInBody(keyTighter, "acme")), 2, 1)
    const addressTighter = await start({ failedSessions: 5, sessionsPerAddress: 3 })
    const body = await signInBody(addressTighter, "acme")
    expectLimit(await post(addressTighter, body), 3, 2)
    expectLimit(await post(addressTighter, body), 3, 1)
  })
})
