import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

const sqlite = openTestSqlite()
afterAll(sqlite.close)

const invalidToken = (response: Parameters<typeof expectError>[0]) =>
  expectError(response, 401, "token", "Missing or invalid token")
const invalidKey = (response: Parameters<typeof expectError>[0]) =>
  expectError(response, 401, "api_key", "Invalid API key or secret")

describe("revoking and rotating API keys, on the test clock", () => {
  let service: TestService
  beforeEach(async () => {
    service = await startTestService({ storage: await sqlite.factory() })
  })
  afterEach(() => service.close())

  const session = (key: { api_key: string; api_secret: string }) =>
    service.request("POST", "/api/v1/sessions", { body: { api_key: key.api_key, api_secret: key.api_secret } })
  const companies = (token: string) => service.request("GET", "/api/v1/companies", { token })

  it("refuses a revoked key's sessions at once and its tokens once the key cache (30 s) has expired", async () => {
    const key = await service.engine.access.createApiKey({ workspace: "acme" })
    const token = (await session(key)).body.data.access_token
    expect((await companies(token)).status).toBe(200)
    const revoked = await service.engine.access.revokeApiKey(key.api_key)
    expect(revoked).toMatchObject({ api_key: key.api_key, revoked_at: "2026-01-01T00:00:00.000Z" })
    invalidKey(await session(key))
    // This process checked the key a moment ago and trusts that answer for up to 30 seconds.
    service.clock.advance(29_999)
    expect((await companies(token)).status).toBe(200)
    service.clock.advance(1)
    invalidToken(await companies(token))
    // Revoking again keeps the first time.
    service.clock.advance(60_000)
    expect((await service.engine.access.revokeApiKey(key.api_key)).revoked_at).toBe("2026-01-01T00:00:00.000Z")
  })

  it("refuses a revoked key's tokens on the next request when the key cache is off", async () => {
    const uncached = await startTestService({ storage: await sqlite.factory(), keyCacheSeconds: 0 })
    try {
      const key = await uncached.engine.access.createApiKey({ workspace: "acme" })
      const body = { api_key: key.api_key, api_secret: key.api_secret }
      const token = (await uncached.request("POST", "/api/v1/sessions", { body })).body.data.access_token
      expect((await uncached.request("GET", "/api/v1/companies", { token })).status).toBe(200)
      await uncached.engine.access.revokeApiKey(key.api_key)
      invalidToken(await uncached.request("GET", "/api/v1/companies", { token }))
    } finally {
      await uncached.close()
    }
  })

  it("keeps the old secret working for the grace period only, and no session it opens outlives it", async () => {
    const key = await service.engine.access.createApiKey({ workspace: "acme" })
    const before = (await session(key)).body.data.access_token
    const rotated = await service.engine.access.rotateApiKey(key.api_key, 1800)
    expect(rotated).toMatchObject({
      api_key: key.api_key,
      rotated_at: "2026-01-01T00:00:00.000Z",
      previous_secret_expires_at: "2026-01-01T00:30:00.000Z",
    })
    expect(rotated.api_secret).not.toBe(key.api_secret)
    const fresh = { ...key, api_secret: rotated.api_secret }

    service.clock.advance(600_000)
    const old = await session(key)
    expect(old.status).toBe(201)
    expect(old.body.data).toMatchObject({ expires_at: "2026-01-01T00:30:00.000Z", expires_in: 1200 })
    const current = await session(fresh)
    expect(current.body.data).toMatchObject({ expires_at: "2026-01-01T01:10:00.000Z", expires_in: 3600 })
    // A token from before the rotation names a live key: it lives out its hour.
    expect((await companies(before)).status).toBe(200)

    service.clock.advance(1_200_000)
    invalidKey(await session(key))
    invalidToken(await companies(old.body.data.access_token))
    expect((await companies(current.body.data.access_token)).status).toBe(200)
    expect((await session(fresh)).status).toBe(201)
  })

  it("ends the previous secret of a first rotation at a second one, and rotates no revoked key", async () => {
    const key = await service.engine.access.createApiKey({ workspace: "acme" })
    const first = await service.engine.access.rotateApiKey(key.api_key)
    expect(first.previous_secret_expires_at).toBe("2026-01-02T00:00:00.000Z")
    const second = await service.engine.access.rotateApiKey(key.api_key, 60)
    invalidKey(await session(key))
    expect((await session({ ...key, api_secret: first.api_secret })).status).toBe(201)
    expect((await session({ ...key, api_secret: second.api_secret })).status).toBe(201)
    await service.engine.access.revokeApiKey(key.api_key)
    invalidKey(await session({ ...key, api_secret: second.api_secret }))
    await expect(service.engine.access.rotateApiKey(key.api_key)).rejects.toMatchObject({
      kind: "conflict",
      errors: [{ field: "api_key", message: "API key is revoked" }],
    })
    await expect(service.engine.access.rotateApiKey("pk_nobody")).rejects.toMatchObject({
      kind: "not_found",
      errors: [{ field: "api_key", message: "API key not found" }],
    })
    await expect(service.engine.access.rotateApiKey(key.api_key, -1)).rejects.toMatchObject({ kind: "invalid" })
  })
})
