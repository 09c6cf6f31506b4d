import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiRoutes } from "../src/routes/api-routes.ts"
import { acme, startTestService, type TestService } from "./support/test-service.ts"

/**
 * "No request body, header or query, however malformed, may cause a 500": random bodies, ids,
 * queries and headers on every route of the table, on SQLite and on Postgres.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

const writes = apiRoutes.filter((route) => route.method === "POST" || route.method === "PATCH")
const reads = apiRoutes.filter((route) => route.method === "GET")
const fieldNames = ["name", "country", "default_currency", "country_alpha2", "email", "api_key", "api_secret"]

/** Latin-1 text without the characters fetch refuses in a header value. */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 300,
})

/** A path segment: a real id, or anything, percent-encoded. */
const segment = (real: string) =>
  fc.oneof(fc.constant(real), fc.string({ unit: "binary", maxLength: 40 }).map(encodeURIComponent))

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom(...fieldNames), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
  fc.record({
    name: fc.string({ unit: "binary" }),
    country: fc.string({ maxLength: 3 }),
    default_currency: fc.string({ maxLength: 4 }),
    country_alpha2: fc.string({ maxLength: 3 }),
    email: fc.oneof(fc.constant(null), fc.emailAddress(), fc.string()),
  }),
)

describe.each([
  ["SQLite", () => sqlite.factory(), 150],
  ["Postgres", () => postgres.factory(), 25],
])("no input causes a 500 on %s", (_name, factory, numRuns) => {
  let service: TestService
  let token: string
  let ids: Record<string, string>
  beforeAll(async () => {
    service = await startTestService({ storage: await factory() })
    token = await service.signIn("fuzz")
    const cid = (await service.request("POST", "/api/v1/companies", { token, body: acme })).body.data.id
    const id = (
      await service.request("POST", `/api/v1/companies/${cid}/entities`, {
        token,
        body: { name: "E", country_alpha2: "US" },
      })
    ).body.data.id
    ids = { cid, id }
  })
  afterAll(() => service.close())

  const pathOf = (template: string, values: Record<string, string>) =>
    template.replace(/\{(\w+)\}/g, (_match, name: string) => values[name] ?? "x")

  const segments = () => fc.record({ cid: segment(ids.cid as string), id: segment(ids.id as string) })

  it("with NUL characters and lone surrogates in text and ids", async () => {
    for (const text of ["a\u0000b", "\ud800", "\udfff x"]) {
      const body = { ...acme, name: text, country_alpha2: "US", email: `${text}@example.com` }
      for (const route of writes) {
        const response = await service.request(route.method, pathOf(route.path, ids), { token, body })
        expect({ route: route.operationId, text, status: response.status }).toEqual({
          route: route.operationId,
          text,
          status: expect.toBeOneOf([200, 201, 400, 401, 404, 422]),
        })
      }
    }
    for (const id of ["%00", "a%00b", "%ED%A0%80"]) {
      for (const route of apiRoutes.filter((r) => r.path.includes("{"))) {
        const withBody = route.method === "POST" || route.method === "PATCH"
        const response = await service.request(route.method, pathOf(route.path, { cid: id, id }), {
          token,
          ...(withBody ? { body: {} } : {}),
        })
        expect({ route: route.operationId, id, status: response.status }).toEqual({
          route: route.operationId,
          id,
          status: expect.toBeOneOf([400, 404, 422]),
        })
      }
    }
  })

  it("with random JSON bodies and ids on every POST and PATCH", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        segments(),
        jsonBody,
        fc.option(headerText),
        async (route, values, body, key) => {
          const response = await service.request(route.method, pathOf(route.path, values), {
            token,
            body,
            ...(key === null ? {} : { headers: { "Idempotency-Key": key } }),
          })
          expect(response.status).toBeLessThan(500)
        },
      ),
      { numRuns },
    )
  })

  it("with random text as the body", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.constantFrom("application/json", "text/plain", "application/merge-patch+json", ""),
        async (route, raw, type) => {
          const response = await service.request(route.method, pathOf(route.path, ids), {
            token,
            raw,
            headers: type === "" ? {} : { "Content-Type": type },
          })
          expect(response.status).toBeLessThan(500)
        },
      ),
      { numRuns },
    )
  })

  it("with random query strings on every GET", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...reads),
        fc.oneof(
          fc.string({ unit: "binary", maxLength: 60 }).map((text) => encodeURI(text).replaceAll("#", "%23")),
          fc
            .array(
              fc.tuple(fc.constantFrom("page", "per_page", "x", "page[]", "__proto__"), fc.string({ maxLength: 20 })),
            )
            .map((pairs) => new URLSearchParams(pairs).toString()),
        ),
        async (route, query) => {
          const response = await service.request("GET", `${pathOf(route.path, ids)}?${query}`, { token })
          expect(response.status).toBeLessThan(500)
        },
      ),
      { numRuns },
    )
  })

  it("with odd headers on every route", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...apiRoutes),
        fc.record(
          {
            Authorization: fc.oneof(
              headerText,
              headerText.map((t) => `Bearer ${t}`),
              fc.constant(`Bearer ${token}`),
            ),
            "Content-Type": headerText,
            "Idempotency-Key": headerText,
            "X-Request-Id": headerText,
            Accept: headerText,
            "Content-Encoding": headerText,
          },
          { requiredKeys: [] },
        ),
        async (route, headers) => {
          const withBody = route.method === "POST" || route.method === "PATCH"
          const response = await service.request(route.method, pathOf(route.path, ids), {
            headers,
            ...(withBody ? { raw: JSON.stringify(acme) } : {}),
          })
          expect(response.status).toBeLessThan(500)
        },
      ),
      { numRuns },
    )
  })
})
