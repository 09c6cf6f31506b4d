import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { entityShape, expectError } from "./support/expectations.ts"
import { acme, activateIntegration, startTestService, type TestService } from "./support/test-service.ts"

const sqlite = openTestSqlite()
afterAll(sqlite.close)

describe("entities", () => {
  let service: TestService
  let token: string
  let cid: string
  beforeEach(async () => {
    service = await startTestService({ storage: await sqlite.factory() })
    token = await service.signIn("acme")
    cid = (await service.request("POST", "/api/v1/companies", { token, body: acme })).body.data.id
  })
  afterEach(() => service.close())

  const post = (body: unknown, companyId = cid) =>
    service.request("POST", `/api/v1/companies/${companyId}/entities`, { token, body })
  const patch = (id: string, body: unknown) =>
    service.request("PATCH", `/api/v1/companies/${cid}/entities/${id}`, { token, body })

  it("answers 201 with the entity", async () => {
    const response = await post({ name: "Acme US", country_alpha2: "US" })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ data: entityShape({ name: "Acme US", country_alpha2: "US", company_id: cid }) })
  })

  it("gives the spec's messages for a missing or wrong name and country", async () => {
    expectError(await post({ country_alpha2: "US" }), 400, "name", "Entity name is required")
    expectError(await post({ name: "Acme US" }), 400, "country_alpha2", "Country alpha2 code is required")
    expectError(
      await post({ name: "Acme US", country_alpha2: "ZZ" }),
      400,
      "country_alpha2",
      "Invalid country alpha2 code",
    )
    expectError(
      await post({ name: "Acme US", country_alpha2: "usa" }),
      400,
      "country_alpha2",
      "Invalid country alpha2 code",
    )
  })

  it("keeps one entity per company", async () => {
    expect((await post({ name: "Acme US", country_alpha2: "US" })).status).toBe(201)
    expectError(await post({ name: "acme us ", country_alpha2: "US" }), 422, "name", "has already been taken")
    expectError(
      await post({ name: "Other", country_alpha2: "US" }),
      422,
      "base",
      "This company already has an existing entity",
    )
  })

  it("lets a company create a new entity once its entity is deleted", async () => {
    const id = (await post({ name: "Acme US", country_alpha2: "US" })).body.data.id
    const deleted = await service.request("DELETE", `/api/v1/companies/${cid}/entities/${id}`, { token })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({
      data: { id, message: "Entity deleted successfully" },
      message: "Entity deleted successfully",
    })
    expect((await post({ name: "Acme US", country_alpha2: "US" })).status).toBe(201)
  })

  it("refuses a blank name on update and answers the updated entity otherwise", async () => {
    const id = (await post({ name: "Acme US", country_alpha2: "US" })).body.data.id
    expectError(await patch(id, { name: "  " }), 422, "name", "can't be blank")
    expectError(await patch(id, { country_alpha2: "ZZ" }), 400, "country_alpha2", "Invalid country alpha2 code")
    const renamed = await patch(id, { name: "Acme America" })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toEqual({
      data: entityShape({ id, name: "Acme America", country_alpha2: "US", company_id: cid }),
    })
  })

  it("refuses to update or delete an entity with an active payment integration: 403", async () => {
    const id = (await post({ name: "Acme US", country_alpha2: "US" })).body.data.id
    await activateIntegration(service.storage, cid, id)
    expectError(await patch(id, { name: "New" }), 403, "base", "Cannot update entity with active payment integration")
    expectError(
      await service.request("DELETE", `/api/v1/companies/${cid}/entities/${id}`, { token }),
      403,
      "base",
      "Cannot delete entity with active payment integration",
    )
    expectError(
      await service.request("PATCH", `/api/v1/companies/${cid}`, { token, body: { name: "New" } }),
      403,
      "base",
      "Company cannot be updated once it has active payment integrations",
    )
    expectError(
      await service.request("DELETE", `/api/v1/companies/${cid}`, { token }),
      403,
      "base",
      "Company cannot be deleted once it has active payment integrations",
    )
  })

  it("answers 404 for an unknown company or entity", async () => {
    const companyNotFound = "Company not found or not accessible in this workspace"
    const entityNotFound = "Entity not found or not accessible in this company"
    expectError(await post({ name: "Acme US", country_alpha2: "US" }, "cmp_nope"), 404, "company_id", companyNotFound)
    expectError(
      await service.request("GET", "/api/v1/companies/cmp_nope/entities", { token }),
      404,
      "company_id",
      companyNotFound,
    )
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      expectError(
        await service.request(method, `/api/v1/companies/${cid}/entities/ent_nope`, {
          token,
          ...(body ? { body } : {}),
        }),
        404,
        "id",
        entityNotFound,
      )
    }
  })
})
