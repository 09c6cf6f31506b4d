import { openTestSqlite } from "@payments-engine/adapters/testing"
import { WorkspaceId } from "@payments-engine/core"
import { decodeJwt } from "jose"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { crudFlow } from "./support/crud-flow.ts"
import { companyShape, expectError } from "./support/expectations.ts"
import { acme, startTestService, type TestService } from "./support/test-service.ts"

const memory = openTestSqlite()
const files = openTestSqlite({ file: true })
afterAll(async () => {
  await memory.close()
  await files.close()
})

describe.each([
  ["SQLite in memory", memory],
  ["SQLite on a file", files],
])("the main flow on %s", (_name, source) => {
  it("creates, reads, lists, updates and deletes companies, entities and recipients", async () => {
    const service = await startTestService({ storage: await source.factory() })
    try {
      await crudFlow(service)
    } finally {
      await service.close()
    }
  })
})

describe("companies", () => {
  let service: TestService
  let token: string
  beforeEach(async () => {
    service = await startTestService({ storage: await memory.factory() })
    token = await service.signIn("acme")
  })
  afterEach(() => service.close())

  const post = (body: unknown) => service.request("POST", "/api/v1/companies", { token, body })

  it("answers 201 with the company", async () => {
    const response = await post(acme)
    expect(response.status).toBe(201)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(response.body).toEqual({ data: companyShape(acme) })
  })

  it("names each missing field with 400", async () => {
    expectError(await post({ country: "US", default_currency: "USD" }), 400, "name", "Name is required")
    expectError(await post({ name: "Acme", default_currency: "USD" }), 400, "country", "Country is required")
    expectError(await post({ name: "Acme", country: "US" }), 400, "default_currency", "Default currency is required")
    const all = await post({})
    expect(all.status).toBe(400)
    expect(all.body.errors).toEqual([
      { field: "name", message: "Name is required" },
      { field: "country", message: "Country is required" },
      { field: "default_currency", message: "Default currency is required" },
    ])
  })

  it("refuses wrong values with 422 on the field", async () => {
    expectError(await post({ ...acme, country: "XX" }), 422, "country", "Invalid country code")
    expectError(await post({ ...acme, default_currency: "usd" }), 422, "default_currency", "Invalid currency code")
    expectError(await post({ ...acme, name: "   " }), 422, "name", "can't be blank")
    expectError(await post({ ...acme, name: 42 }), 422, "name", "must be a string")
    expectError(await post([acme]), 400, "body", "Body must be a JSON object")
  })

  it("updates only the fields sent and refuses blank ones", async () => {
    const id = (await post(acme)).body.data.id
    const response = await service.request("PATCH", `/api/v1/companies/${id}`, {
      token,
      body: { default_currency: "EUR" },
    })
    expect(response.status).toBe(200)
    expect(response.body.data).toEqual(companyShape({ ...acme, id, default_currency: "EUR" }))
    expectError(
      await service.request("PATCH", `/api/v1/companies/${id}`, { token, body: { name: "" } }),
      422,
      "name",
      "can't be blank",
    )
    const empty = await service.request("PATCH", `/api/v1/companies/${id}`, { token })
    expect(empty.status).toBe(200)
    expect(empty.body.data.name).toBe(acme.name)
  })

  it("refuses to delete a company not created through the API: 403", async () => {
    const actor = { workspaceId: WorkspaceId.make(decodeJwt(token).workspace_id as string), scope: "write" } as const
    const platform = await service.engine.companies.create(actor, acme, { role: "platform" })
    expectError(
      await service.request("DELETE", `/api/v1/companies/${platform.id}`, { token }),
      403,
      "base",
      "This company cannot be deleted. Only companies created via API are eligible for deletion",
    )
    expect((await service.request("GET", `/api/v1/companies/${platform.id}`, { token })).body.data).toEqual(platform)
  })

  it("answers 404 for unknown ids on every by-id route", async () => {
    const notFound = "Company not found or not accessible in this workspace"
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      expectError(
        await service.request(method, "/api/v1/companies/cmp_nope", { token, ...(body ? { body } : {}) }),
        404,
        "id",
        notFound,
      )
    }
  })

  it("keeps a deleted company fetchable but out of lists, and refuses to change it again", async () => {
    const id = (await post(acme)).body.data.id
    const deleted = await service.request("DELETE", `/api/v1/companies/${id}`, { token })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ data: companyShape({ ...acme, id }) })
    expect((await service.request("GET", `/api/v1/companies/${id}`, { token })).status).toBe(200)
    expect((await service.request("GET", "/api/v1/companies", { token })).body.meta.total_records).toBe(0)
    const notFound = "Company not found or not accessible in this workspace"
    expectError(await service.request("DELETE", `/api/v1/companies/${id}`, { token }), 404, "id", notFound)
    expectError(
      await service.request("PATCH", `/api/v1/companies/${id}`, { token, body: { name: "Again" } }),
      404,
      "id",
      notFound,
    )
    expectError(
      await service.request("GET", `/api/v1/companies/${id}/entities`, { token }),
      404,
      "company_id",
      notFound,
    )
  })
})
