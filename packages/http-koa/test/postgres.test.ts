import { openTestPostgres } from "@payments-engine/adapters/testing"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { crossCurrencyFlow } from "./support/cross-currency-flow.ts"
import { crudFlow } from "./support/crud-flow.ts"
import { expectError } from "./support/expectations.ts"
import { paymentFlow } from "./support/payment-flow.ts"
import { acme, startTestService, type TestService } from "./support/test-service.ts"

/** The HTTP API on Postgres: DATABASE_URL when set (CI), an in-process PGlite otherwise. */
const postgres = openTestPostgres()
afterAll(postgres.close)

describe(`the API on Postgres (${postgres.kind})`, () => {
  let service: TestService
  beforeEach(async () => {
    service = await startTestService({ storage: await postgres.factory() })
  })
  afterEach(() => service.close())

  it("creates, reads, lists, updates and deletes companies, entities and recipients", async () => {
    await crudFlow(service)
  })

  it("keeps workspaces apart, pages, and replays idempotent requests", async () => {
    const token = await service.signIn("acme")
    const stranger = await service.signIn("globex")
    const headers = { "Idempotency-Key": "pg-1" }
    const answers = await Promise.all(
      [1, 2, 3].map(() => service.request("POST", "/api/v1/companies", { token, body: acme, headers })),
    )
    expect(answers.filter((a) => a.status === 201 && a.headers.get("idempotent-replayed") === null)).toHaveLength(1)
    const cid = answers.find((a) => a.status === 201)?.body.data.id
    expectError(
      await service.request("GET", `/api/v1/companies/${cid}`, { token: stranger }),
      404,
      "id",
      "Company not found or not accessible in this workspace",
    )
    await service.request("POST", "/api/v1/companies", { token, body: { ...acme, name: "Second" } })
    const page = await service.request("GET", "/api/v1/companies?per_page=1&page=2", { token })
    expect(page.body.meta).toEqual({ total_records: 2, total_pages: 2, current_page: 2, per_page: 1 })
    expect(page.body.data[0].name).toBe("Second")
    const entity = await service.request("POST", `/api/v1/companies/${cid}/entities`, {
      token,
      body: { name: "E", country_alpha2: "US" },
    })
    expect(entity.status).toBe(201)
    expectError(
      await service.request("POST", `/api/v1/companies/${cid}/entities`, {
        token,
        body: { name: "F", country_alpha2: "US" },
      }),
      422,
      "base",
      "This company already has an existing entity",
    )
  })
})

describe(`paying a recipient on Postgres (${postgres.kind})`, () => {
  it("follows the client's flow from payment methods to a completed payment", async () => {
    const service = await startTestService({ storage: await postgres.factory(), sandbox: true })
    try {
      await paymentFlow(service)
    } finally {
      await service.close()
    }
  })

  it("quotes USD to EUR only once the multi-currency account is ACTIVE, then pays to completion", async () => {
    const service = await startTestService({ storage: await postgres.factory(), sandbox: true })
    try {
      await crossCurrencyFlow(service)
    } finally {
      await service.close()
    }
  })
})
