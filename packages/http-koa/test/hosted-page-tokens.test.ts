import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { expectDocumentedShape } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * Hosted-page tokens over HTTP on a real socket, on SQLite and Postgres: the three purposes of
 * the entity route and the funding route, every rule and message of the spec's table (and ours
 * where it shows none), tenancy, the 2-hour expiry by the workspace's sandbox clock, and that a
 * hosted-page token is never an API bearer token nor the reverse.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

const invalidToken = "Missing or invalid token"

/** The header and claims of a JWT, read without checking it (what anyone holding it can read). */
const decodeJwt = (token: string) => {
  const [header, payload] = token
    .split(".")
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")))
  return { header, payload }
}

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("hosted-page tokens on %s", (_name, factory) => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ storage: await factory(), sandbox: true })
  })
  afterAll(async () => {
    await service.close()
  })

  /** A signed-in workspace with a company, its US entity, a recipient and (unless `feature` is false) the multi-currency application. */
  const client = async (workspace: string, { feature = true } = {}) => {
    const token = await service.signIn(workspace)
    const company = await service.request("POST", "/api/v1/companies", {
      token,
      body: { name: `${workspace} Inc`, country: "US", default_currency: "USD" },
    })
    const cid = company.body.data.id as string
    const entity = await service.request("POST", `/api/v1/companies/${cid}/entities`, {
      token,
      body: { name: `${workspace} Inc`, country_alpha2: "US" },
    })
    const eid = entity.body.data.id as string
    const recipient = await service.request("POST", `/api/v1/companies/${cid}/recipients`, {
      token,
      body: { name: "Jane Supplier" },
    })
    const rid = recipient.body.data.id as string
    let app = ""
    if (feature) {
      const enabled = await service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/features`, {
        token,
        body: { feature_identifier: "multi_currency_account" },
      })
      expect(enabled.status, enabled.text).toBe(201)
      app = enabled.body.data.application_id as string
    }
    const entityToken = (body: unknown, as = token, headers: Record<string, string> = {}) =>
      service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/hosted_page_tokens`, {
        token: as,
        body,
        headers,
      })
    const fundingToken = (body: unknown, as = token) =>
      service.request("POST", "/api/v1/hosted_page_tokens", { token: as, body })
    const setStatus = (status: string) =>
      service.request("POST", `/api/v1/sandbox/features/${app}/status`, { token, body: { status } })
    return { token, cid, eid, rid, app, entityToken, fundingToken, setStatus }
  }

  describe("recipient_add_bank_account", () => {
    it("answers 201 with the token object, a JWT for that recipient valid 2 hours; return_url ignored without a trusted-domain configuration", async () => {
      const acme = await client("hpt-recipient")
      const created = await acme.entityToken({
        purpose: "recipient_add_bank_account",
        recipient_id: acme.rid,
        return_url: "https://example.com/done",
      })
      expect(created.status, created.text).toBe(201)
      expectDocumentedShape(service.routes, "createEntityHostedPageToken", created)
      expect(created.body).toEqual({
        data: { token: expect.any(String), purpose: "recipient_add_bank_account", recipient_id: acme.rid },
      })
      const { header, payload } = decodeJwt(created.body.data.token)
      expect(header).toEqual({ alg: "HS256", typ: "hosted-page+jwt" })
      expect(payload).toMatchObject({
        purpose: "recipient_add_bank_account",
        company_id: acme.cid,
        entity_id: acme.eid,
        recipient_id: acme.rid,
        aud: "payments-engine/hosted-page",
        jti: expect.stringMatching(/^hpt_/),
      })
      expect(payload.return_url).toBeUndefined()
      expect(payload.exp - payload.iat).toBe(7200)
      const again = await acme.entityToken({ purpose: "recipient_add_bank_account", recipient_id: acme.rid })
      expect(decodeJwt(again.body.data.token).payload.jti).not.toBe(payload.jti)

      const checked = await service.engine.hostedPageTokens.verify(created.body.data.token)
      expect(checked).toMatchObject({
        valid: true,
        claims: {
          purpose: "recipient_add_bank_account",
          companyId: acme.cid,
          entityId: acme.eid,
          recipientId: acme.rid,
        },
      })
    })

    it("answers the rules of the recipient: required, of this company, live; the path's entity of this company, else 404", async () => {
      const acme = await client("hpt-recipient-rules")
      const other = await client("hpt-recipient-stranger")
      const sibling = await service.request("POST", "/api/v1/companies", {
        token: acme.token,
        body: { name: "Sibling", country: "US", default_currency: "USD" },
      })
      const siblingRecipient = await service.request("POST", `/api/v1/companies/${sibling.body.data.id}/recipients`, {
        token: acme.token,
        body: { name: "Elsewhere" },
      })
      const purpose = "recipient_add_bank_account"
      expectError(await acme.entityToken({ purpose }), 400, "recipient_id", "Recipient ID is required")
      const notOfCompany = "Recipient does not belong to this company"
      for (const recipient_id of ["rcp_nope", other.rid, siblingRecipient.body.data.id, "", 42, "x".repeat(5000)]) {
        expectError(await acme.entityToken({ purpose, recipient_id }), 422, "recipient_id", notOfCompany)
      }
      const deleted = await service.request("DELETE", `/api/v1/companies/${acme.cid}/recipients/${acme.rid}`, {
        token: acme.token,
      })
      expect(deleted.status).toBe(204)
      expectError(await acme.entityToken({ purpose, recipient_id: acme.rid }), 422, "recipient_id", notOfCompany)

      const body = { purpose, recipient_id: other.rid }
      // Another company's entity in the path is missing, as every other path id of another company.
      const siblingEntity = await service.request("POST", `/api/v1/companies/${sibling.body.data.id}/entities`, {
        token: acme.token,
        body: { name: "Sibling", country_alpha2: "US" },
      })
      for (const eid of [other.eid, siblingEntity.body.data.id, "ent_nope"]) {
        expectError(
          await service.request("POST", `/api/v1/companies/${acme.cid}/entities/${eid}/hosted_page_tokens`, {
            token: acme.token,
            body: { purpose, recipient_id: acme.rid },
          }),
          404,
          "entity_id",
          "Entity not found or not accessible in this company",
        )
      }
      expectError(
        await service.request("POST", `/api/v1/companies/${other.cid}/entities/${other.eid}/hosted_page_tokens`, {
          token: acme.token,
          body,
        }),
        404,
        "company_id",
        "Company not found or not accessible in this workspace",
      )
    })
  })

  describe("purpose", () => {
    it("is required and known, and belongs to its route", async () => {
      const acme = await client("hpt-purpose")
      for (const body of [{}, { purpose: "" }, { purpose: null }, { recipient_id: acme.rid }]) {
        expectError(await acme.entityToken(body), 400, "purpose", "Purpose is required")
        expectError(await acme.fundingToken(body), 400, "purpose", "Purpose is required")
      }
      for (const purpose of ["nope", 42, ["onboarding"], { a: 1 }, "ONBOARDING", "x".repeat(100_000)]) {
        expectError(await acme.entityToken({ purpose }), 400, "purpose", "Invalid purpose")
        expectError(await acme.fundingToken({ purpose }), 400, "purpose", "Invalid purpose")
      }
      expectError(
        await acme.entityToken({ purpose: "funding_accounts", entity_id: acme.eid }),
        400,
        "purpose",
        "Invalid purpose: funding_accounts tokens are issued by POST /api/v1/hosted_page_tokens",
      )
      for (const purpose of ["recipient_add_bank_account", "onboarding", "pending_action"]) {
        expectError(
          await acme.fundingToken({ purpose, entity_id: acme.eid, recipient_id: acme.rid, application_id: acme.app }),
          403,
          "purpose",
          `Purpose ${purpose} is not allowed here: issue it with POST /api/v1/companies/{cid}/entities/{eid}/hosted_page_tokens`,
        )
      }
      for (const body of [[], "text", 7, null]) {
        const answer = await acme.entityToken(body)
        expect(answer.status, answer.text).toBe(400)
      }
    })
  })

  describe("onboarding and pending_action", () => {
    it("issues onboarding for a CREATED application and pending_action for an ACTION_REQUIRED one, else 422 base", async () => {
      const acme = await client("hpt-feature")
      const onboarding = {
        feature_identifier: "multi_currency_account",
        purpose: "onboarding",
        application_id: acme.app,
      }
      const pending = { ...onboarding, purpose: "pending_action" }
      const created = await acme.entityToken(onboarding)
      expect(created.status, created.text).toBe(201)
      expectDocumentedShape(service.routes, "createEntityHostedPageToken", created)
      expect(created.body).toEqual({
        data: {
          token: expect.any(String),
          purpose: "onboarding",
          feature_identifier: "multi_currency_account",
          application_id: acme.app,
        },
      })
      expect(decodeJwt(created.body.data.token).payload).toMatchObject({
        purpose: "onboarding",
        application_id: acme.app,
        entity_id: acme.eid,
      })
      const mismatch = (required: string, status: string) =>
        `Cannot create token. Application status must be ${required}, current status is ${status}`
      expectError(await acme.entityToken(pending), 422, "base", mismatch("ACTION_REQUIRED", "CREATED"))

      expect((await acme.setStatus("SUBMITTED")).status).toBe(200)
      expectError(await acme.entityToken(onboarding), 422, "base", mismatch("CREATED", "SUBMITTED"))
      expectError(await acme.entityToken(pending), 422, "base", mismatch("ACTION_REQUIRED", "SUBMITTED"))
      expect((await acme.setStatus("ACTION_REQUIRED")).status).toBe(200)
      expectError(await acme.entityToken(onboarding), 422, "base", mismatch("CREATED", "ACTION_REQUIRED"))
      const answered = await acme.entityToken(pending)
      expect(answered.status, answered.text).toBe(201)
      expect(answered.body.data).toMatchObject({ purpose: "pending_action", application_id: acme.app })
      expect(await service.engine.hostedPageTokens.verify(answered.body.data.token)).toMatchObject({
        valid: true,
        claims: { purpose: "pending_action", applicationId: acme.app, featureIdentifier: "multi_currency_account" },
      })
      expect((await acme.setStatus("SUBMITTED")).status).toBe(200)
      expect((await acme.setStatus("ACTIVE")).status).toBe(200)
      expectError(await acme.entityToken(pending), 422, "base", mismatch("ACTION_REQUIRED", "ACTIVE"))
    })

    it("answers the rules of the application and the feature identifier", async () => {
      const acme = await client("hpt-application")
      const stranger = await client("hpt-application-stranger")
      const sibling = await service.request("POST", "/api/v1/companies", {
        token: acme.token,
        body: { name: "Sibling", country: "US", default_currency: "USD" },
      })
      const siblingEntity = await service.request("POST", `/api/v1/companies/${sibling.body.data.id}/entities`, {
        token: acme.token,
        body: { name: "Sibling", country_alpha2: "US" },
      })
      const siblingFeature = await service.request(
        "POST",
        `/api/v1/companies/${sibling.body.data.id}/entities/${siblingEntity.body.data.id}/features`,
        { token: acme.token, body: { feature_identifier: "multi_currency_account" } },
      )
      const base = { feature_identifier: "multi_currency_account", purpose: "onboarding" }
      expectError(await acme.entityToken(base), 400, "application_id", "Application ID is required")
      for (const application_id of ["app_nope", stranger.app, "", "x".repeat(5000)]) {
        expectError(await acme.entityToken({ ...base, application_id }), 404, "application_id", "Application not found")
      }
      expectError(
        await acme.entityToken({ ...base, application_id: siblingFeature.body.data.application_id }),
        422,
        "application_id",
        "Application does not belong to this entity",
      )
      // Only one feature exists, so an application of another type can only be written straight to storage.
      const otherType = await service.storage.transaction(async (tx) => {
        const [mca] = await tx.features.listByEntity(acme.eid as never)
        if (mca === undefined) throw new Error("no application")
        const row = { ...mca, application_id: `${mca.application_id}x` as never, feature_identifier: "credit_line" }
        await tx.features.insertOrGet(row)
        return row.application_id as string
      })
      expectError(
        await acme.entityToken({ ...base, application_id: otherType }),
        422,
        "application_id",
        "Invalid application type for this feature",
      )
      expectError(
        await acme.entityToken({ purpose: "onboarding", application_id: acme.app }),
        400,
        "feature_identifier",
        "Feature identifier is required",
      )
      expectError(
        await acme.entityToken({ ...base, feature_identifier: "credit_card", application_id: acme.app }),
        400,
        "feature_identifier",
        "Invalid feature identifier. Available features: multi_currency_account",
      )
      expectError(
        await service.request("POST", `/api/v1/companies/${acme.cid}/entities/${stranger.eid}/hosted_page_tokens`, {
          token: acme.token,
          body: { ...base, application_id: acme.app },
        }),
        404,
        "entity_id",
        "Entity not found or not accessible in this company",
      )
    })
  })

  describe("funding_accounts", () => {
    it("issues a token for an entity of the workspace with a multi-currency account", async () => {
      const acme = await client("hpt-funding")
      const created = await acme.fundingToken({ purpose: "funding_accounts", entity_id: acme.eid })
      expect(created.status, created.text).toBe(201)
      expectDocumentedShape(service.routes, "createFundingHostedPageToken", created)
      expect(created.body).toEqual({ data: { token: expect.any(String), purpose: "funding_accounts" } })
      expect(decodeJwt(created.body.data.token).payload).toMatchObject({
        purpose: "funding_accounts",
        company_id: acme.cid,
        entity_id: acme.eid,
      })
    })

    it("answers the rules of the entity", async () => {
      const acme = await client("hpt-funding-rules", { feature: false })
      const stranger = await client("hpt-funding-stranger")
      const purpose = "funding_accounts"
      expectError(await acme.fundingToken({ purpose }), 400, "entity_id", "Entity ID is required")
      expectError(
        await acme.fundingToken({ purpose, entity_id: acme.eid }),
        422,
        "entity_id",
        "Multi-currency account not found for this entity. Please create an account first.",
      )
      for (const entity_id of ["ent_nope", stranger.eid, "", 42, "x".repeat(5000)]) {
        expectError(
          await acme.fundingToken({ purpose, entity_id }),
          422,
          "entity_id",
          "Entity does not belong to a company of this workspace",
        )
      }
    })
  })

  describe("return_url", () => {
    it("must be a string of at most 2048 characters", async () => {
      const acme = await client("hpt-return-url")
      const body = { purpose: "funding_accounts", entity_id: acme.eid }
      expectError(await acme.fundingToken({ ...body, return_url: 42 }), 422, "return_url", "must be a string")
      expectError(
        await acme.fundingToken({ ...body, return_url: `https://example.com/${"a".repeat(2048)}` }),
        422,
        "return_url",
        "is too long (maximum is 2048 characters)",
      )
      const fine = await acme.fundingToken({ ...body, return_url: "https://example.com/done" })
      expect(fine.status, fine.text).toBe(201)
      expect(fine.body.data.return_url).toBeUndefined()
    })

    it("is kept in the token and echoed when the workspace trusts its host, and refused when it does not", async () => {
      const acme = await client("hpt-trusted")
      const configured = await service.request("POST", "/graphql", {
        token: acme.token,
        body: {
          query: `mutation { upsertTrustedDomainConfig(input: { domains: ["*.initech.example"] }) {
            trustedDomainConfig { domains } errors { field messages } } }`,
        },
      })
      expect(configured.status, configured.text).toBe(200)
      expect(configured.body.data.upsertTrustedDomainConfig.errors).toEqual([])
      const body = { purpose: "funding_accounts", entity_id: acme.eid }
      const trusted = await acme.fundingToken({ ...body, return_url: "https://app.initech.example/done?x=1" })
      expect(trusted.status, trusted.text).toBe(201)
      expect(trusted.body.data.return_url).toBe("https://app.initech.example/done?x=1")
      const verified = await service.engine.hostedPageTokens.verify(trusted.body.data.token)
      expect(verified).toMatchObject({ valid: true, claims: { returnUrl: "https://app.initech.example/done?x=1" } })
      for (const url of [
        "https://initech.example/done",
        "https://app.initech.example@evil.test/",
        "http://app.initech.example/",
      ]) {
        expectError(
          await acme.entityToken({ purpose: "recipient_add_bank_account", recipient_id: acme.rid, return_url: url }),
          422,
          "return_url",
          "URL domain is not in the trusted domains list",
        )
      }
    })
  })

  describe("the token", () => {
    it("expires 2 hours after it was issued by the workspace's clock, and is refused when tampered or for another page", async () => {
      const acme = await client("hpt-expiry")
      const created = await acme.fundingToken({ purpose: "funding_accounts", entity_id: acme.eid })
      const token = created.body.data.token as string
      const verify = service.engine.hostedPageTokens.verify
      expect(await verify(token, { purposes: ["funding_accounts"] })).toMatchObject({ valid: true })
      expect(await verify(token, { purposes: ["recipient_add_bank_account"] })).toEqual({
        valid: false,
        reason: "wrong_purpose",
      })
      const [header, payload, signature] = token.split(".") as [string, string, string]
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
      const forged = Buffer.from(JSON.stringify({ ...claims, entity_id: "ent_other" })).toString("base64url")
      expect(await verify(`${header}.${forged}.${signature}`)).toEqual({ valid: false, reason: "invalid" })
      const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`
      expect(await verify(`${header}.${payload}.${flipped}`)).toEqual({ valid: false, reason: "invalid" })
      expect(await verify("")).toEqual({ valid: false, reason: "invalid" })
      expect(await verify("not.a.jwt")).toEqual({ valid: false, reason: "invalid" })

      // Bearer tokens live an hour: each step signs in again.
      const advance = async (seconds: number) =>
        service.request("POST", "/api/v1/sandbox/clock/advance", {
          token: await service.signIn("hpt-expiry"),
          body: { seconds },
        })
      expect((await advance(3600)).status).toBe(200)
      expect((await advance(3599)).status).toBe(200)
      expect(await verify(token)).toMatchObject({ valid: true })
      expect((await advance(1)).status).toBe(200)
      expect(await verify(token)).toEqual({ valid: false, reason: "expired" })
      // A new token is issued with the same request, by the workspace's moved clock.
      const renewed = await acme.fundingToken(
        { purpose: "funding_accounts", entity_id: acme.eid },
        await service.signIn("hpt-expiry"),
      )
      expect(await verify(renewed.body.data.token)).toMatchObject({ valid: true })
    })

    it("is not an API bearer token, and an API bearer token is not a hosted-page token", async () => {
      const acme = await client("hpt-confusion")
      const created = await acme.fundingToken({ purpose: "funding_accounts", entity_id: acme.eid })
      const hosted = created.body.data.token as string
      expectError(await service.request("GET", "/api/v1/companies", { token: hosted }), 401, "token", invalidToken)
      expectError(
        await acme.fundingToken({ purpose: "funding_accounts", entity_id: acme.eid }, hosted),
        401,
        "token",
        invalidToken,
      )
      expect(await service.engine.hostedPageTokens.verify(acme.token)).toEqual({ valid: false, reason: "invalid" })
    })

    it("needs a key that may write, and replays with the same Idempotency-Key", async () => {
      const acme = await client("hpt-scope")
      const reader = await service.signIn("hpt-scope", "read")
      expectError(
        await acme.fundingToken({ purpose: "funding_accounts", entity_id: acme.eid }, reader),
        403,
        "base",
        "API key does not have permission for this action",
      )
      const headers = { "Idempotency-Key": "hpt-1" }
      const body = { purpose: "recipient_add_bank_account", recipient_id: acme.rid }
      const first = await acme.entityToken(body, acme.token, headers)
      const again = await acme.entityToken(body, acme.token, headers)
      expect(first.status).toBe(201)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.body).toEqual(first.body)
      // The remembered answer keeps the token sealed: the records are no store of live credentials.
      const records = await (service.storage as KyselyStorage).db
        .selectFrom("idempotency_records")
        .selectAll()
        .where("key", "=", "hpt-1")
        .execute()
      expect(records).toHaveLength(1)
      const signature = (first.body.data.token as string).split(".")[2] as string
      expect(JSON.stringify(records)).not.toContain(signature)
      expect(JSON.parse(records[0]?.response_body ?? "{}").data.token).toEqual({
        $sealed: expect.stringMatching(/^aes-256-gcm:/),
      })
    })
  })
})

describe("hosted-page tokens outside sandbox mode", () => {
  it("expire 2 hours after they were issued by the engine's clock", async () => {
    const service = await startTestService({ storage: await sqlite.factory(), tokenLifetimeSeconds: 86_400 })
    try {
      const token = await service.signIn("hpt-real-time")
      const company = await service.request("POST", "/api/v1/companies", {
        token,
        body: { name: "Real Time Inc", country: "US", default_currency: "USD" },
      })
      const cid = company.body.data.id
      const entity = await service.request("POST", `/api/v1/companies/${cid}/entities`, {
        token,
        body: { name: "Real Time Inc", country_alpha2: "US" },
      })
      const eid = entity.body.data.id
      await service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/features`, {
        token,
        body: { feature_identifier: "multi_currency_account" },
      })
      const issued = await service.request("POST", "/api/v1/hosted_page_tokens", {
        token,
        body: { purpose: "funding_accounts", entity_id: eid },
      })
      expect(issued.status, issued.text).toBe(201)
      const hosted = issued.body.data.token as string
      service.clock.advance(7_199_000)
      expect(await service.engine.hostedPageTokens.verify(hosted)).toMatchObject({
        valid: true,
        claims: { purpose: "funding_accounts", entityId: eid, companyId: cid },
      })
      service.clock.advance(1_000)
      expect(await service.engine.hostedPageTokens.verify(hosted)).toEqual({ valid: false, reason: "expired" })
    } finally {
      await service.close()
    }
  })
})
