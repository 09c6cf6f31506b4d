import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { trustedDomainMessages } from "@payments-engine/core"
import { Schema } from "effect"
import { getIntrospectionQuery } from "graphql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { graphqlLimits } from "../src/binding/graphql/query-limits.ts"
import type { RouteSpec } from "../src/binding/routes/route-table.ts"
import { expectError } from "./support/expectations.ts"
import { generousRateLimits, startTestService, type TestService } from "./support/test-service.ts"

/**
 * DECISIONS "Trusted domains", over a real socket on SQLite and Postgres: `POST /graphql` with
 * the mutation `upsertTrustedDomainConfig` and the query `trustedDomainConfig`, bearer auth,
 * invalid domains in the payload's `errors`, workspaces kept apart, hostile queries refused;
 * and the return URL check that hosted-page tokens make, through the engine.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

const upsert = `mutation Upsert($domains: [String!]!) {
  upsertTrustedDomainConfig(input: { domains: $domains }) {
    trustedDomainConfig { id domains }
    errors { field messages }
  }
}`
const read = "{ trustedDomainConfig { id domains } }"

/** A probe of the engine's return URL check (no route of the API calls it until hosted-page tokens do). */
const returnUrlProbe: RouteSpec = {
  method: "POST",
  path: "/api/v1/test/return_url",
  operationId: "testReturnUrl",
  summary: "test only",
  tag: "Test",
  auth: "bearer",
  response: { kind: "raw", schema: Schema.Unknown },
  status: 200,
  errors: [],
  handle: async ({ engine, actor, query }) => ({
    return_url: (await engine.trustedDomains.checkReturnUrl(actor, query.url as string | undefined)) ?? null,
  }),
}

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("trusted domains over GraphQL on %s", (_name, factory) => {
  let service: TestService
  let tokenA: string
  let tokenB: string
  beforeAll(async () => {
    service = await startTestService({ storage: await factory(), extraRoutes: [returnUrlProbe] })
    tokenA = await service.signIn("trusted-a")
    tokenB = await service.signIn("trusted-b")
  })
  afterAll(() => service.close())

  const graphql = (token: string | undefined, query: string, variables?: Record<string, unknown>) =>
    service.request("POST", "/graphql", {
      ...(token === undefined ? {} : { token }),
      body: { query, ...(variables === undefined ? {} : { variables }) },
    })
  const configOf = async (token: string) => {
    const response = await graphql(token, read)
    expect(response.status, `${response.text} ${service.logs.filter((l) => l.includes("error")).join("\n")}`).toBe(200)
    return response.body.data.trustedDomainConfig
  }
  const checkReturnUrl = (token: string, url?: string) =>
    service.request("POST", `/api/v1/test/return_url${url === undefined ? "" : `?url=${encodeURIComponent(url)}`}`, {
      token,
    })

  it("stores a workspace's domains, normalised, reads them back, and replaces them whole", async () => {
    expect(await configOf(tokenA)).toBeNull()
    const first = await graphql(tokenA, upsert, { domains: ["Example.COM", "*.Bücher.example.", "example.com"] })
    expect(first.status, first.text).toBe(200)
    expect(first.headers.get("content-type")).toMatch(/^application\/(graphql-response\+)?json/)
    const config = first.body.data.upsertTrustedDomainConfig
    expect(config).toEqual({
      trustedDomainConfig: { id: expect.stringMatching(/^tdc_/), domains: ["example.com", "*.xn--bcher-kva.example"] },
      errors: [],
    })
    expect(await configOf(tokenA)).toEqual(config.trustedDomainConfig)

    // Inline arguments work as variables do; the list is replaced, the id kept.
    const second = await graphql(
      tokenA,
      'mutation { upsertTrustedDomainConfig(input: { domains: ["*.example.com"] }) { trustedDomainConfig { id domains } errors { field messages } } }',
    )
    expect(second.body.data.upsertTrustedDomainConfig).toEqual({
      trustedDomainConfig: { id: config.trustedDomainConfig.id, domains: ["*.example.com"] },
      errors: [],
    })
    expect(await configOf(tokenA)).toEqual({ id: config.trustedDomainConfig.id, domains: ["*.example.com"] })
  })

  it("answers invalid domains in the payload's errors, by field, and keeps the stored list", async () => {
    await graphql(tokenA, upsert, { domains: ["pay.example.com"] })
    const refused = await graphql(tokenA, upsert, {
      domains: ["ok.example", "*", "https://evil.test/path", "a.*.example.com", "*.com"],
    })
    expect(refused.status, refused.text).toBe(200)
    expect(refused.body.errors).toBeUndefined()
    expect(refused.body.data.upsertTrustedDomainConfig).toEqual({
      trustedDomainConfig: null,
      errors: [
        { field: "domains.1", messages: [trustedDomainMessages.bareWildcard] },
        { field: "domains.2", messages: [trustedDomainMessages.notHostname] },
        { field: "domains.3", messages: [trustedDomainMessages.misplacedWildcard] },
        { field: "domains.4", messages: [trustedDomainMessages.wildcardTooBroad] },
      ],
    })
    const tooMany = await graphql(tokenA, upsert, {
      domains: Array.from({ length: 51 }, (_, i) => `d${i}.example`),
    })
    expect(tooMany.body.data.upsertTrustedDomainConfig).toEqual({
      trustedDomainConfig: null,
      errors: [{ field: "domains", messages: [trustedDomainMessages.tooMany] }],
    })
    expect((await configOf(tokenA)).domains).toEqual(["pay.example.com"])
  })

  it("answers the API's 401 without a token or with a wrong one, and a read-only key may read but not write", async () => {
    expectError(await graphql(undefined, read), 401, "token", "Missing or invalid token")
    expectError(await graphql("not-a-token", read), 401, "token", "Missing or invalid token")
    const readOnly = await service.signIn("trusted-a", "read")
    expect((await graphql(readOnly, read)).body.data.trustedDomainConfig).not.toBeNull()
    const refused = await graphql(readOnly, upsert, { domains: ["x.example"] })
    expect(refused.body.data).toBeNull()
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: "API key does not have permission for this action",
        extensions: expect.objectContaining({ code: "forbidden" }),
      }),
    ])
  })

  it("never shows or changes another workspace's configuration", async () => {
    await graphql(tokenA, upsert, { domains: ["a-only.example"] })
    const a = await configOf(tokenA)
    expect(await configOf(tokenB)).toBeNull()
    const b = await graphql(tokenB, upsert, { domains: ["b-only.example"] })
    expect(b.body.data.upsertTrustedDomainConfig.trustedDomainConfig.id).not.toBe(a.id)
    expect(await configOf(tokenA)).toEqual(a)
    expect((await configOf(tokenB)).domains).toEqual(["b-only.example"])
  })

  it("refuses hostile queries cheaply: too large, too many tokens, too deep, too wide, fragment bombs", async () => {
    const padded = `{ trustedDomainConfig { id } }${" ".repeat(graphqlLimits.maxBodyBytes)}`
    expectError(await graphql(tokenA, padded), 413, "body", "Payload too large")

    const tokens = await graphql(tokenA, `{ ${"a ".repeat(graphqlLimits.maxTokens)} }`)
    expect(tokens.body.data).toBeUndefined()
    expect(tokens.body.errors[0].message).toMatch(/more that 2000 tokens/)

    const deep = `{ __schema { types { ${"fields { type { ".repeat(10)}name${" } }".repeat(10)} } } }`
    const tooDeep = await graphql(tokenA, deep)
    expect(tooDeep.body.data).toBeUndefined()
    expect(tooDeep.body.errors).toEqual([
      expect.objectContaining({
        message: `Operation anonymous is nested deeper than ${graphqlLimits.maxDepth} levels`,
      }),
    ])

    const aliases = Array.from({ length: 11 }, (_, i) => `a${i}: trustedDomainConfig { id }`).join(" ")
    const wide = await graphql(tokenA, `query Wide { ${aliases} }`)
    expect(wide.body.errors).toEqual([
      expect.objectContaining({ message: `Operation Wide has more than ${graphqlLimits.maxRootFields} root fields` }),
    ])

    // Each fragment spreads the one before it twice: 2^30 fields once expanded, in a few hundred bytes.
    const bomb = [
      "query Bomb { __schema { ...F30 } }",
      "fragment F0 on __Schema { description }",
      ...Array.from({ length: 30 }, (_, i) => `fragment F${i + 1} on __Schema { ...F${i} ...F${i} }`),
    ].join("\n")
    const started = performance.now()
    const bombed = await graphql(tokenA, bomb)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(bombed.body.errors).toEqual([
      expect.objectContaining({ message: `Operation Bomb selects more than ${graphqlLimits.maxSelections} fields` }),
    ])

    const cycle = await graphql(
      tokenA,
      "query C { __schema { ...A } } fragment A on __Schema { ...B } fragment B on __Schema { ...A }",
    )
    expect(cycle.body.data).toBeUndefined()
    expect(cycle.body.errors.length).toBeGreaterThan(0)

    for (const malformed of [{ query: 42 }, { nothing: true }, { query: "{ nope }" }, { query: "{" }]) {
      const response = await service.request("POST", "/graphql", { token: tokenA, body: malformed })
      // A 4xx, or GraphQL's 200 with `errors` and no `data` (GraphQL over HTTP with application/json).
      expect(response.status, response.text).toBeLessThan(500)
      if (response.status === 200) {
        expect(response.body.data, response.text).toBeUndefined()
        expect(response.body.errors.length, response.text).toBeGreaterThan(0)
      } else expect(response.status, response.text).toBeGreaterThanOrEqual(400)
    }
    // The service still answers.
    expect((await configOf(tokenA)).domains).toEqual(expect.any(Array))
  })

  it("answers the standard introspection query within its limits", async () => {
    const introspection = await graphql(tokenA, getIntrospectionQuery())
    expect(introspection.status, introspection.text).toBe(200)
    const types = introspection.body.data.__schema.types.map((type: { name: string }) => type.name)
    expect(types).toEqual(
      expect.arrayContaining(["TrustedDomainConfig", "UserError", "UpsertTrustedDomainConfigInput"]),
    )
  })

  it("checks a return URL as hosted-page tokens do: trusted, untrusted, or ignored without a configuration", async () => {
    const c = await service.signIn("trusted-c")
    const ignored = await checkReturnUrl(c, "https://anything.test/done")
    expect(ignored.body).toEqual({ return_url: null })

    await graphql(c, upsert, { domains: ["*.example.com", "shop.test"] })
    expect((await checkReturnUrl(c, "https://Pay.Example.com:8443/done?x=1#top")).body).toEqual({
      return_url: "https://pay.example.com:8443/done?x=1#top",
    })
    expect((await checkReturnUrl(c, "https://shop.test./back")).body).toEqual({ return_url: "https://shop.test./back" })
    expect((await checkReturnUrl(c)).body).toEqual({ return_url: null })
    for (const untrusted of [
      "https://example.com/",
      "https://example.com@evil.test/",
      "https://pay.example.com.evil.test/",
      "https://evilexample.com/",
      "http://pay.example.com/",
      "https://evil.test/?next=https://pay.example.com",
      "javascript:alert(1)",
    ]) {
      expectError(
        await checkReturnUrl(c, untrusted),
        422,
        "return_url",
        "URL domain is not in the trusted domains list",
      )
    }
    // Another workspace's configuration does not apply.
    const d = await service.signIn("trusted-d")
    expect((await checkReturnUrl(d, "https://evil.test/")).body).toEqual({ return_url: null })
  })
})

describe("a defect behind the GraphQL route", () => {
  it("answers the API's 500 without the defect's text, and logs it as a defect", async () => {
    const service = await startTestService({
      storage: await sqlite.factory(),
      wrapEngine: (engine) => ({
        ...engine,
        trustedDomains: {
          ...engine.trustedDomains,
          get: async () => {
            throw new Error("database detail that must not leak")
          },
        },
      }),
    })
    try {
      const token = await service.signIn("defect")
      const response = await service.request("POST", "/graphql", { token, body: { query: read } })
      expectError(response, 500, "base", "Internal server error")
      expect(response.text).not.toContain("database detail")
      // Logged as every defect is (its type and stack; messages stay out of logs, see log-secrets.test.ts).
      expect(service.logs.some((line) => line.includes('"msg":"unexpected error"'))).toBe(true)
      // Input errors are no defect: still the payload's errors.
      const refused = await service.request("POST", "/graphql", {
        token,
        body: { query: upsert, variables: { domains: ["*"] } },
      })
      expect(refused.body.data.upsertTrustedDomainConfig.errors).toEqual([
        { field: "domains.0", messages: [trustedDomainMessages.bareWildcard] },
      ])
    } finally {
      await service.close()
    }
  })
})

describe("the GraphQL route's rate limit", () => {
  it("counts /graphql against the general limit, as every API route", async () => {
    const service = await startTestService({
      storage: await sqlite.factory(),
      rateLimits: { limits: { ...generousRateLimits, general: 3 } },
    })
    try {
      const token = await service.signIn("limited")
      for (let i = 0; i < 3; i++) {
        const response = await service.request("POST", "/graphql", { token, body: { query: read } })
        expect(response.status, response.text).toBe(200)
      }
      const refused = await service.request("POST", "/graphql", { token, body: { query: read } })
      expectError(refused, 429, "base", "Rate limit exceeded. Please try again later.")
    } finally {
      await service.close()
    }
  })
})
