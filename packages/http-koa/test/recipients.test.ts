import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { expectError, recipientShape } from "./support/expectations.ts"
import { acme, startTestService, type TestService } from "./support/test-service.ts"

const sqlite = openTestSqlite()
afterAll(sqlite.close)

describe("recipients", () => {
  let service: TestService
  let token: string
  let cid: string
  beforeEach(async () => {
    service = await startTestService({ storage: await sqlite.factory() })
    token = await service.signIn("acme")
    cid = (await service.request("POST", "/api/v1/companies", { token, body: acme })).body.data.id
  })
  afterEach(() => service.close())

  const post = (body: unknown) => service.request("POST", `/api/v1/companies/${cid}/recipients`, { token, body })

  it("answers 201 with the recipient and its empty bank accounts; email is optional", async () => {
    const response = await post({ name: "Jane Supplier" })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ data: recipientShape({ name: "Jane Supplier" }) })
    const again = await post({ name: "Jim Supplier", email: "shared@example.com" })
    const same = await post({ name: "Joe Supplier", email: "shared@example.com" })
    expect([again.status, same.status]).toEqual([201, 201])
  })

  it("requires a name and a well-formed email", async () => {
    expectError(await post({}), 400, "name", "Name is required")
    expectError(await post({ name: "" }), 422, "name", "can't be blank")
    expectError(await post({ name: "Jane", email: "not-an-address" }), 422, "email", "is not a valid email address")
  })

  it("lists recipients paged and forgets deleted ones", async () => {
    const first = (await post({ name: "A" })).body.data
    const second = (await post({ name: "B" })).body.data
    const page = await service.request("GET", `/api/v1/companies/${cid}/recipients?per_page=1&page=2`, { token })
    expect(page.body).toEqual({
      data: [second],
      meta: { total_records: 2, total_pages: 2, current_page: 2, per_page: 1 },
      links: {
        first: `/api/v1/companies/${cid}/recipients?page=1&per_page=1`,
        prev: `/api/v1/companies/${cid}/recipients?page=1&per_page=1`,
        next: null,
        last: `/api/v1/companies/${cid}/recipients?page=2&per_page=1`,
      },
    })
    const deleted = await service.request("DELETE", `/api/v1/companies/${cid}/recipients/${second.id}`, { token })
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe("")
    expect((await service.request("GET", `/api/v1/companies/${cid}/recipients`, { token })).body.data).toEqual([first])
  })

  it("answers 404 for an unknown, deleted or foreign recipient", async () => {
    const notFound = "Recipient not found or not accessible in this workspace"
    const id = (await post({ name: "A" })).body.data.id
    await service.request("DELETE", `/api/v1/companies/${cid}/recipients/${id}`, { token })
    for (const rid of ["rcp_nope", id]) {
      expectError(
        await service.request("GET", `/api/v1/companies/${cid}/recipients/${rid}`, { token }),
        404,
        "id",
        notFound,
      )
      expectError(
        await service.request("DELETE", `/api/v1/companies/${cid}/recipients/${rid}`, { token }),
        404,
        "id",
        notFound,
      )
    }
    const other = (await service.request("POST", "/api/v1/companies", { token, body: acme })).body.data.id
    const theirs = (
      await service.request("POST", `/api/v1/companies/${other}/recipients`, { token, body: { name: "B" } })
    ).body.data.id
    expectError(
      await service.request("GET", `/api/v1/companies/${cid}/recipients/${theirs}`, { token }),
      404,
      "id",
      notFound,
    )
    expectError(
      await service.request("GET", "/api/v1/companies/cmp_nope/recipients", { token }),
      404,
      "company_id",
      "Company not found or not accessible in this workspace",
    )
  })
})
