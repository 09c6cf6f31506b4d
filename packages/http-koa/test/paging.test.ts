import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { acme, startTestService, type TestService } from "./support/test-service.ts"

const sqlite = openTestSqlite()
let service: TestService
let token: string
const ids: Array<string> = []
beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory() })
  token = await service.signIn("acme")
  for (let i = 1; i <= 25; i += 1) {
    const response = await service.request("POST", "/api/v1/companies", {
      token,
      body: { ...acme, name: `Company ${i}` },
    })
    ids.push(response.body.data.id)
  }
})
afterAll(async () => {
  await service.close()
  await sqlite.close()
})

const list = (query: string) => service.request("GET", `/api/v1/companies${query}`, { token })
const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((company) => company.id)

describe("paged lists", () => {
  it("pages by 20 by default, oldest first, with links", async () => {
    const first = await list("")
    expect(first.status).toBe(200)
    expect(idsOf(first.body)).toEqual(ids.slice(0, 20))
    expect(first.body.meta).toEqual({ total_records: 25, total_pages: 2, current_page: 1, per_page: 20 })
    expect(first.body.links).toEqual({
      first: "/api/v1/companies?page=1&per_page=20",
      prev: null,
      next: "/api/v1/companies?page=2&per_page=20",
      last: "/api/v1/companies?page=2&per_page=20",
    })
    const second = await service.request("GET", first.body.links.next, { token })
    expect(idsOf(second.body)).toEqual(ids.slice(20))
    expect(second.body.meta).toEqual({ total_records: 25, total_pages: 2, current_page: 2, per_page: 20 })
    expect(second.body.links.prev).toBe("/api/v1/companies?page=1&per_page=20")
    expect(second.body.links.next).toBeNull()
  })

  it("clamps per_page to 100", async () => {
    const response = await list("?per_page=500")
    expect(response.body.data).toHaveLength(25)
    expect(response.body.meta).toEqual({ total_records: 25, total_pages: 1, current_page: 1, per_page: 100 })
    expect(response.body.links.first).toBe("/api/v1/companies?page=1&per_page=100")
  })

  it("answers an empty page past the end, with the right meta", async () => {
    const response = await list("?page=9&per_page=10")
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      data: [],
      meta: { total_records: 25, total_pages: 3, current_page: 9, per_page: 10 },
      links: {
        first: "/api/v1/companies?page=1&per_page=10",
        prev: "/api/v1/companies?page=3&per_page=10",
        next: null,
        last: "/api/v1/companies?page=3&per_page=10",
      },
    })
  })

  it("keeps the other query parameters in the links", async () => {
    const response = await list("?sort=name&per_page=10&page=2&tag=a%20b")
    expect(response.body.links).toEqual({
      first: "/api/v1/companies?sort=name&tag=a+b&page=1&per_page=10",
      prev: "/api/v1/companies?sort=name&tag=a+b&page=1&per_page=10",
      next: "/api/v1/companies?sort=name&tag=a+b&page=3&per_page=10",
      last: "/api/v1/companies?sort=name&tag=a+b&page=3&per_page=10",
    })
  })

  it("answers 400 on page or per_page that is not a whole number >= 1", async () => {
    const message = "must be an integer greater than or equal to 1"
    for (const query of ["?page=0", "?page=-1", "?page=abc", "?page=1.5", "?page=", "?page=1&page=2"]) {
      expectError(await list(query), 400, "page", message)
    }
    for (const query of ["?per_page=0", "?per_page=ten", "?per_page=1e2"]) {
      expectError(await list(query), 400, "per_page", message)
    }
    const both = await list("?page=x&per_page=y")
    expect(both.status).toBe(400)
    expect(both.body.errors).toEqual([
      { field: "page", message },
      { field: "per_page", message },
    ])
  })

  it("pages entities and recipients the same way", async () => {
    const cid = ids[0]
    await service.request("POST", `/api/v1/companies/${cid}/entities`, {
      token,
      body: { name: "E", country_alpha2: "US" },
    })
    const entities = await service.request("GET", `/api/v1/companies/${cid}/entities?per_page=1`, { token })
    expect(entities.body.meta).toEqual({ total_records: 1, total_pages: 1, current_page: 1, per_page: 1 })
    expect(entities.body.links.last).toBe(`/api/v1/companies/${cid}/entities?page=1&per_page=1`)
    const recipients = await service.request("GET", `/api/v1/companies/${cid}/recipients?per_page=1000`, { token })
    expect(recipients.body.meta).toEqual({ total_records: 0, total_pages: 1, current_page: 1, per_page: 100 })
    expectError(
      await service.request("GET", `/api/v1/companies/${cid}/recipients?page=0`, { token }),
      400,
      "page",
      "must be an integer greater than or equal to 1",
    )
  })
})
