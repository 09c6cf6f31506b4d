import { openTestSqlite } from "@payments-engine/adapters/testing"
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { tokenAudience, tokenIssuer } from "../src/binding/bearer-tokens.ts"
import { expectError, isoTimestamp } from "./support/expectations.ts"
import { acme, startTestService, type TestService, testJwtSecret } from "./support/test-service.ts"

const sqlite = openTestSqlite()
afterAll(sqlite.close)

const invalidToken = (response: { status: number; body: unknown; headers: Headers }) => {
  expectError(response as never, 401, "token", "Missing or invalid token")
  expect(response.headers.get("www-authenticate")).toBe("Bearer")
}

const testStart = Math.floor(new Date("2026-01-01T00:00:00.000Z").getTime() / 1000)

/** A token signed with the service's own secret (unless told otherwise): what only a forger with the secret could make. */
const sign = (
  claims: Record<string, unknown>,
  options: { secret?: string; iat?: number; exp?: number; aud?: string } = {},
) => {
  const iat = options.iat ?? testStart
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(tokenIssuer)
    .setAudience(options.aud ?? tokenAudience)
    .setIssuedAt(iat)
    .setExpirationTime(options.exp ?? iat + 3600)
    .sign(new TextEncoder().encode(options.secret ?? testJwtSecret))
}

/** The id of a key, as its sessions' tokens carry it in `sub`. */
const keyIdOf = async (service: TestService, key: { api_key: string; api_secret: string }) =>
  (await service.engine.access.authenticate(key)).keyId

describe("sessions", () => {
  let service: TestService
  beforeEach(async () => {
    service = await startTestService({ storage: await sqlite.factory() })
  })
  afterEach(() => service.close())

  it("exchanges a key and secret for an HS256 bearer token valid one hour", async () => {
    const key = await service.engine.access.createApiKey({ workspace: "acme", scope: "read" })
    const response = await service.request("POST", "/api/v1/sessions", {
      body: { api_key: key.api_key, api_secret: key.api_secret },
    })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({
      data: {
        access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        token_type: "Bearer",
        expires_at: "2026-01-01T01:00:00.000Z",
        expires_in: 3600,
      },
    })
    expect(response.body.data.expires_at).toEqual(isoTimestamp)
    const token = response.body.data.access_token
    expect(decodeProtectedHeader(token).alg).toBe("HS256")
    expect(decodeJwt(token)).toMatchObject({
      workspace_id: key.workspace_id,
      scope: "read",
      sub: await keyIdOf(service, key),
      iat: testStart,
      exp: testStart + 3600,
    })
    expect((await service.request("GET", "/api/v1/companies", { token })).status).toBe(200)
  })

  it("answers 401 api_key for a wrong secret or an unknown key, 400 for missing fields", async () => {
    const key = await service.engine.access.createApiKey({ workspace: "acme" })
    const invalid = "Invalid API key or secret"
    const post = (body: unknown) => service.request("POST", "/api/v1/sessions", { body })
    expectError(await post({ api_key: key.api_key, api_secret: "wrong" }), 401, "api_key", invalid)
    expectError(await post({ api_key: "pk_unknown", api_secret: key.api_secret }), 401, "api_key", invalid)
    expectError(await post({ api_key: "x".repeat(500), api_secret: "y" }), 401, "api_key", invalid)
    expectError(await post({ api_secret: "y" }), 400, "api_key", "API key is required")
    expectError(await post({ api_key: key.api_key }), 400, "api_secret", "API secret is required")
  })
})

describe("bearer tokens", () => {
  let service: TestService
  beforeEach(async () => {
    service = await startTestService({ storage: await sqlite.factory() })
  })
  afterEach(() => service.close())

  const list = (headers: Record<string, string>) => service.request("GET", "/api/v1/companies", { headers })

  it("answers 401 token for a missing, malformed, foreign or forged token", async () => {
    const key = await service.engine.access.createApiKey({ workspace: "acme" })
    const { workspace_id } = key
    const sub = await keyIdOf(service, key)
    const valid = await sign({ workspace_id, scope: "write", sub })
    expect((await list({ Authorization: `Bearer ${valid}` })).status).toBe(200)
    invalidToken(await list({}))
    invalidToken(await list({ Authorization: "" }))
    invalidToken(await list({ Authorization: valid }))
    invalidToken(await list({ Authorization: `Basic ${valid}` }))
    invalidToken(await list({ Authorization: "Bearer not.a.jwt" }))
    invalidToken(await list({ Authorization: "Bearer \u00e9t\u00e9" }))
    invalidToken(await list({ Authorization: `Bearer ${valid}x` }))
    invalidToken(
      await list({
        Authorization: `Bearer ${await sign({ workspace_id, scope: "write", sub }, { secret: "another-secret-of-at-least-32-characters" })}`,
      }),
    )
    invalidToken(
      await list({
        Authorization: `Bearer ${await sign({ workspace_id, scope: "write", sub }, { aud: "hosted-pages" })}`,
      }),
    )
    invalidToken(await list({ Authorization: `Bearer ${await sign({ workspace_id, scope: "admin", sub })}` }))
    invalidToken(await list({ Authorization: `Bearer ${await sign({ scope: "write", sub })}` }))
    const [header, payload] = valid.split(".")
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${payload}.`
    invalidToken(await list({ Authorization: `Bearer ${none}` }))
    invalidToken(await list({ Authorization: `Bearer ${header}.${payload}.` }))
  })

  it("answers 401 once the token has expired", async () => {
    const token = await service.signIn("acme")
    expect((await list({ Authorization: `Bearer ${token}` })).status).toBe(200)
    service.clock.advance(3600 * 1000)
    invalidToken(await list({ Authorization: `Bearer ${token}` }))
    const key = await service.engine.access.createApiKey({ workspace: "acme" })
    const claims = { workspace_id: key.workspace_id, scope: "write", sub: await keyIdOf(service, key) }
    const past = Math.floor(new Date("2025-12-31T00:00:00.000Z").getTime() / 1000)
    invalidToken(await list({ Authorization: `Bearer ${await sign(claims, { iat: past - 3600, exp: past })}` }))
  })

  it("refuses correctly signed tokens that outlive the lifetime or name no live key of their workspace", async () => {
    const key = await service.engine.access.createApiKey({ workspace: "acme" })
    const other = await service.engine.access.createApiKey({ workspace: "globex" })
    const sub = await keyIdOf(service, key)
    const claims = { workspace_id: key.workspace_id, scope: "write", sub }
    const bearer = async (token: Promise<string>) => list({ Authorization: `Bearer ${await token}` })
    expect((await bearer(sign(claims, { exp: testStart + 3600 }))).status).toBe(200)
    invalidToken(await bearer(sign(claims, { exp: testStart + 3601 })))
    invalidToken(await bearer(sign(claims, { exp: testStart + 10 * 365 * 86_400 })))
    // An iat in the future would stretch the token's life past the lifetime from now.
    invalidToken(await bearer(sign(claims, { iat: testStart + 600 })))
    invalidToken(await bearer(sign({ workspace_id: "ws_nowhere", scope: "write", sub })))
    invalidToken(await bearer(sign({ ...claims, sub: "key_unknown" })))
    invalidToken(await bearer(sign({ ...claims, sub: await keyIdOf(service, other) })))
    invalidToken(await bearer(sign({ workspace_id: key.workspace_id, scope: "write" })))
    invalidToken(await bearer(sign({ ...claims, sub: "" })))
    invalidToken(await bearer(sign({ ...claims, scope: "read" })))
    const revoked = await service.engine.access.createApiKey({ workspace: "acme" })
    const revokedClaims = { ...claims, sub: await keyIdOf(service, revoked) }
    await service.engine.access.revokeApiKey(revoked.api_key)
    invalidToken(await bearer(sign(revokedClaims)))
  })

  it("honours a configured lifetime", async () => {
    const short = await startTestService({ storage: await sqlite.factory(), tokenLifetimeSeconds: 60 })
    try {
      const token = await short.signIn("acme")
      short.clock.advance(59_999)
      expect((await short.request("GET", "/api/v1/companies", { token })).status).toBe(200)
      short.clock.advance(1)
      invalidToken(await short.request("GET", "/api/v1/companies", { token }))
    } finally {
      await short.close()
    }
  })

  it("authenticates before routing: unknown /api paths answer 401 without a token, 404 with one", async () => {
    for (const path of ["/api/v1/nope", "/api/v1", "/api", "/API/V1/companies", "/api/v2/companies"]) {
      invalidToken(await service.request("GET", path))
    }
    invalidToken(await service.request("GET", "/api/v1/sessions"))
    const token = await service.signIn("acme")
    for (const path of ["/api/v1/nope", "/API/V1/companies", "/api/v1/sessions"]) {
      expectError(await service.request("GET", path, { token }), 404, "path", "Not found")
    }
  })

  it("leaves /health and /openapi.json open", async () => {
    const health = await service.request("GET", "/health")
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: "ok" })
    expect((await service.request("GET", "/openapi.json")).status).toBe(200)
  })
})

describe("permissions and workspaces", () => {
  let service: TestService
  let writer: string
  let cid: string
  let eid: string
  let rid: string
  beforeEach(async () => {
    service = await startTestService({ storage: await sqlite.factory() })
    writer = await service.signIn("acme")
    cid = (await service.request("POST", "/api/v1/companies", { token: writer, body: acme })).body.data.id
    eid = (
      await service.request("POST", `/api/v1/companies/${cid}/entities`, {
        token: writer,
        body: { name: "Acme US", country_alpha2: "US" },
      })
    ).body.data.id
    rid = (
      await service.request("POST", `/api/v1/companies/${cid}/recipients`, { token: writer, body: { name: "Jane" } })
    ).body.data.id
  })
  afterEach(() => service.close())

  it("gives a read key 403 on every POST, PATCH and DELETE, and 200 on reads", async () => {
    const reader = await service.signIn("acme", "read")
    const writes: Array<[string, string, unknown?]> = [
      ["POST", "/api/v1/companies", acme],
      ["PATCH", `/api/v1/companies/${cid}`, { name: "X" }],
      ["DELETE", `/api/v1/companies/${cid}`],
      ["POST", `/api/v1/companies/${cid}/entities`, { name: "Other", country_alpha2: "US" }],
      ["PATCH", `/api/v1/companies/${cid}/entities/${eid}`, { name: "X" }],
      ["DELETE", `/api/v1/companies/${cid}/entities/${eid}`],
      ["POST", `/api/v1/companies/${cid}/recipients`, { name: "Jim" }],
      ["DELETE", `/api/v1/companies/${cid}/recipients/${rid}`],
    ]
    for (const [method, path, body] of writes) {
      expectError(
        await service.request(method, path, { token: reader, ...(body === undefined ? {} : { body }) }),
        403,
        "base",
        "API key does not have permission for this action",
      )
    }
    for (const path of [
      "/api/v1/companies",
      `/api/v1/companies/${cid}`,
      `/api/v1/companies/${cid}/entities`,
      `/api/v1/companies/${cid}/entities/${eid}`,
      `/api/v1/companies/${cid}/recipients`,
      `/api/v1/companies/${cid}/recipients/${rid}`,
    ]) {
      expect((await service.request("GET", path, { token: reader })).status).toBe(200)
    }
  })

  it("lets a read key ask for bank-account requirements, and refuses it every other POST, PATCH and DELETE of the route table", async () => {
    const reader = await service.signIn("acme", "read")
    const requirements = await service.request("POST", "/api/v1/bank_account_requirements", {
      token: reader,
      body: { country_code: "US", currency_code: "USD", entity_type: "COMPANY" },
    })
    expect(requirements.status).toBe(200)
    expect(requirements.body.data.condition).toMatchObject({ transfer_method: "LOCAL" })
    const sandbox = await startTestService({ storage: await sqlite.factory(), sandbox: true })
    try {
      const sandboxReader = await sandbox.signIn("acme", "read")
      // POST /graphql carries queries, which a read key may send; its mutations are refused
      // inside the GraphQL answer (trusted-domains.test.ts).
      const open = new Set(["POST /api/v1/sessions", "POST /api/v1/bank_account_requirements", "POST /graphql"])
      const writes = sandbox.routes.filter(
        (route) => route.method !== "GET" && !open.has(`${route.method} ${route.path}`),
      )
      expect(writes.length).toBeGreaterThan(15)
      for (const route of writes) {
        const path = route.path.replace(/\{cid\}/g, cid).replace(/\{[a-z_]+\}/g, "x_1")
        // An upload takes a form: a small one, so that the engine, not the body reader, answers.
        const form = '--x\r\nContent-Disposition: form-data; name="document_type"\r\n\r\nother\r\n--x--\r\n'
        const response = await sandbox.request(
          route.method,
          path,
          route.upload === undefined
            ? { token: sandboxReader, body: {} }
            : { token: sandboxReader, raw: form, headers: { "Content-Type": "multipart/form-data; boundary=x" } },
        )
        expect({ route: route.operationId, status: response.status, body: response.body }).toEqual({
          route: route.operationId,
          status: 403,
          body: { errors: [{ field: "base", message: "API key does not have permission for this action" }] },
        })
      }
    } finally {
      await sandbox.close()
    }
  })

  it("answers 404 to another workspace on every route under the company, exactly as if it did not exist", async () => {
    const stranger = await service.signIn("globex")
    const company = ["id", "Company not found or not accessible in this workspace"] as const
    const underCompany = ["company_id", "Company not found or not accessible in this workspace"] as const
    const routes: Array<[string, string, readonly [string, string], unknown?]> = [
      ["GET", `/api/v1/companies/${cid}`, company],
      ["PATCH", `/api/v1/companies/${cid}`, company, { name: "X" }],
      ["DELETE", `/api/v1/companies/${cid}`, company],
      ["GET", `/api/v1/companies/${cid}/entities`, underCompany],
      ["POST", `/api/v1/companies/${cid}/entities`, underCompany, { name: "Globex", country_alpha2: "US" }],
      ["GET", `/api/v1/companies/${cid}/entities/${eid}`, underCompany],
      ["PATCH", `/api/v1/companies/${cid}/entities/${eid}`, underCompany, { name: "X" }],
      ["DELETE", `/api/v1/companies/${cid}/entities/${eid}`, underCompany],
      ["GET", `/api/v1/companies/${cid}/recipients`, underCompany],
      ["POST", `/api/v1/companies/${cid}/recipients`, underCompany, { name: "Jim" }],
      ["GET", `/api/v1/companies/${cid}/recipients/${rid}`, underCompany],
      ["DELETE", `/api/v1/companies/${cid}/recipients/${rid}`, underCompany],
    ]
    for (const [method, path, [field, message], body] of routes) {
      const response = await service.request(method, path, { token: stranger, ...(body === undefined ? {} : { body }) })
      expectError(response, 404, field, message)
    }
    expect((await service.request("GET", "/api/v1/companies", { token: stranger })).body.data).toEqual([])
    expect((await service.request("GET", `/api/v1/companies/${cid}`, { token: writer })).status).toBe(200)
    expect((await service.request("GET", `/api/v1/companies/${cid}/entities/${eid}`, { token: writer })).status).toBe(
      200,
    )
  })
})
