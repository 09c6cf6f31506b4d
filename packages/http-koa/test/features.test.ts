import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { crossCurrencyFlow } from "./support/cross-currency-flow.ts"
import { expectError } from "./support/expectations.ts"
import { expectDocumentedShape } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/** Entity features (the multi-currency account) and their sandbox status helper, over HTTP on SQLite. */
const sqlite = openTestSqlite()
let service: TestService
let token: string
beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory(), sandbox: true })
  token = await service.signIn("features")
})
afterAll(async () => {
  await service.close()
  await sqlite.close()
})

const multiCurrency = { feature_identifier: "multi_currency_account" }
const readOnly = "API key does not have permission for this action"
const companyNotFound = "Company not found or not accessible in this workspace"
const entityNotFound = "Entity not found or not accessible in this company"

/** A new company with its entity in `country`, for the workspace of `as`. */
const entityIn = async (country = "US", as = token) => {
  const company = await service.request("POST", "/api/v1/companies", {
    token: as,
    body: { name: `Acme ${country}`, country, default_currency: "USD" },
  })
  const cid = company.body.data.id as string
  const entity = await service.request("POST", `/api/v1/companies/${cid}/entities`, {
    token: as,
    body: { name: `Acme ${country}`, country_alpha2: country },
  })
  expect(entity.status, entity.text).toBe(201)
  return { cid, eid: entity.body.data.id as string }
}

const featuresPath = ({ cid, eid }: { cid: string; eid: string }) => `/api/v1/companies/${cid}/entities/${eid}/features`
const enable = (at: { cid: string; eid: string }, body: unknown = multiCurrency, as = token, headers = {}) =>
  service.request("POST", featuresPath(at), { token: as, body, headers })
const list = (at: { cid: string; eid: string }, as = token) => service.request("GET", featuresPath(at), { token: as })
const setStatus = (app: string, body: unknown, as = token) =>
  service.request("POST", `/api/v1/sandbox/features/${app}/status`, { token: as, body })

describe("GET and POST /api/v1/companies/{cid}/entities/{eid}/features", () => {
  it("enables the multi-currency account: 201 with a CREATED application, then 200 with the same one, listed", async () => {
    const at = await entityIn()
    const empty = await list(at)
    expectDocumentedShape(service.routes, "listFeatures", empty)
    expect(empty.body).toEqual({ data: [] })

    const created = await enable(at)
    expectDocumentedShape(service.routes, "enableFeature", created)
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      data: {
        feature_identifier: "multi_currency_account",
        feature_name: "Multi-Currency Account",
        application_id: expect.stringMatching(/^app_/),
        status: "CREATED",
      },
    })
    const again = await enable(at)
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: created.body })
    expect((await list(at)).body).toEqual({ data: [created.body.data] })
  })

  it("honours Idempotency-Key: a retry replays the first answer, another body with the key is a 422", async () => {
    const at = await entityIn()
    const first = await enable(at, multiCurrency, token, { "Idempotency-Key": "enable-1" })
    const retry = await enable(at, multiCurrency, token, { "Idempotency-Key": "enable-1" })
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 201, body: first.body })
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expectError(
      await enable(at, { feature_identifier: "other" }, token, { "Idempotency-Key": "enable-1" }),
      422,
      "Idempotency-Key",
      "Idempotency key reused with different parameters",
    )
  })

  it("answers the spec's errors for enabling", async () => {
    const at = await entityIn()
    expectError(await enable(at, {}), 400, "feature_identifier", "Feature identifier is required")
    for (const wrong of ["MULTI_CURRENCY_ACCOUNT", "payments", "", 3, null]) {
      expectError(
        await enable(at, { feature_identifier: wrong }),
        400,
        "feature_identifier",
        "Invalid feature identifier. Available features: multi_currency_account",
      )
    }
    expectError(
      await enable(await entityIn("GB")),
      422,
      "entity",
      "Multi-currency account is only available for US entities",
    )
    const app = (await enable(at)).body.data.application_id
    expect((await setStatus(app, { status: "SUBMITTED" })).status).toBe(200)
    expectError(
      await enable(at),
      422,
      "base",
      "Multi-currency account already exists with status: SUBMITTED. Cannot create a new account.",
    )
    expect((await setStatus(app, { status: "ACTION_REQUIRED" })).status).toBe(200)
    expectError(
      await enable(at),
      422,
      "base",
      "Multi-currency account already exists with status: ACTION_REQUIRED. Cannot create a new account.",
    )
    expect((await list(at)).body.data).toEqual([
      expect.objectContaining({ application_id: app, status: "ACTION_REQUIRED" }),
    ])

    for (const call of [enable, list]) {
      expectError(await call({ cid: "cmp_unknown", eid: at.eid }), 404, "company_id", companyNotFound)
      expectError(await call({ cid: at.cid, eid: "ent_unknown" }), 404, "entity_id", entityNotFound)
    }
  })

  it("gives a read key the list and 403 on both POSTs", async () => {
    const at = await entityIn()
    const app = (await enable(at)).body.data.application_id
    const reader = await service.signIn("features", "read")
    expectError(await enable(at, multiCurrency, reader), 403, "base", readOnly)
    expectError(await setStatus(app, { status: "SUBMITTED" }, reader), 403, "base", readOnly)
    expect((await list(at, reader)).body.data).toEqual([
      expect.objectContaining({ application_id: app, status: "CREATED" }),
    ])
  })

  it("answers 404 to another workspace, for the entity's features and for the application", async () => {
    const at = await entityIn()
    const app = (await enable(at)).body.data.application_id
    const stranger = await service.signIn("features-strangers")
    expectError(await list(at, stranger), 404, "company_id", companyNotFound)
    expectError(await enable(at, multiCurrency, stranger), 404, "company_id", companyNotFound)
    expectError(await setStatus(app, { status: "SUBMITTED" }, stranger), 404, "application_id", "Application not found")
    const theirs = await entityIn("US", stranger)
    expectError(await list({ cid: theirs.cid, eid: at.eid }, stranger), 404, "entity_id", entityNotFound)
    expect((await list(at)).body.data).toEqual([expect.objectContaining({ application_id: app, status: "CREATED" })])
  })
})

describe("POST /api/v1/sandbox/features/{application_id}/status", () => {
  it("moves an application along the feature machine and refuses any other move with 422 status", async () => {
    const at = await entityIn()
    const feature = (await enable(at)).body.data
    const app = feature.application_id
    const refused = async (from: string, to: string) =>
      expectError(
        await setStatus(app, { status: to }),
        422,
        "status",
        `Cannot change application status from ${from} to ${to}`,
      )
    await refused("CREATED", "ACTIVE")
    await refused("CREATED", "ACTION_REQUIRED")
    for (const [to, from] of [
      ["SUBMITTED", "CREATED"],
      ["ACTION_REQUIRED", "SUBMITTED"],
      ["SUBMITTED", "ACTION_REQUIRED"],
      ["ACTIVE", "SUBMITTED"],
    ] as const) {
      const moved = await setStatus(app, { status: to })
      expectDocumentedShape(service.routes, "sandboxSetFeatureStatus", moved)
      expect(moved.body, `${from} -> ${to}`).toEqual({ data: { ...feature, status: to } })
    }
    for (const to of ["SUBMITTED", "ACTION_REQUIRED", "ACTIVE"]) await refused("ACTIVE", to)
    expect((await list(at)).body.data).toEqual([{ ...feature, status: "ACTIVE" }])
  })

  it("answers 400 and 422 for a missing or unknown status, 404 for an unknown application", async () => {
    const at = await entityIn()
    const app = (await enable(at)).body.data.application_id
    expectError(await setStatus(app, {}), 400, "status", "Status is required")
    expectError(await setStatus(app, [{ status: "SUBMITTED" }]), 400, "body", "Body must be a JSON object")
    for (const status of ["CREATED", "submitted", "APPROVED", 1, null]) {
      expectError(await setStatus(app, { status }), 422, "status", "must be one of: SUBMITTED, ACTIVE, ACTION_REQUIRED")
    }
    expectError(await setStatus("app_unknown", { status: "SUBMITTED" }), 404, "application_id", "Application not found")
    expect((await list(at)).body.data[0].status).toBe("CREATED")
  })

  it("gives the entity its active payment integration on ACTIVE: then the spec's 403s for entity and company", async () => {
    const at = await entityIn()
    const app = (await enable(at)).body.data.application_id
    await setStatus(app, { status: "SUBMITTED" })
    const entityPath = `/api/v1/companies/${at.cid}/entities/${at.eid}`
    const renamed = await service.request("PATCH", entityPath, { token, body: { name: "Acme Renamed" } })
    expect(renamed.status).toBe(200)
    expect((await setStatus(app, { status: "ACTIVE" })).status).toBe(200)

    expectError(
      await service.request("PATCH", entityPath, { token, body: { name: "New" } }),
      403,
      "base",
      "Cannot update entity with active payment integration",
    )
    expectError(
      await service.request("DELETE", entityPath, { token }),
      403,
      "base",
      "Cannot delete entity with active payment integration",
    )
    expectError(
      await service.request("PATCH", `/api/v1/companies/${at.cid}`, { token, body: { name: "New" } }),
      403,
      "base",
      "Company cannot be updated once it has active payment integrations",
    )
    expectError(
      await service.request("DELETE", `/api/v1/companies/${at.cid}`, { token }),
      403,
      "base",
      "Company cannot be deleted once it has active payment integrations",
    )
    expect((await service.request("GET", entityPath, { token })).body).toEqual(renamed.body)
  })

  it("is not served outside sandbox mode", async () => {
    const plain = await startTestService({ storage: await sqlite.factory() })
    try {
      const signedIn = await plain.signIn("features")
      const response = await plain.request("POST", "/api/v1/sandbox/features/app_x/status", {
        token: signedIn,
        body: { status: "SUBMITTED" },
      })
      expectError(response, 404, "path", "Not found")
    } finally {
      await plain.close()
    }
  })
})

describe("paying across currencies on SQLite", () => {
  it("quotes USD to EUR only once the multi-currency account is ACTIVE, then pays to completion", async () => {
    await crossCurrencyFlow(service)
  })
})
