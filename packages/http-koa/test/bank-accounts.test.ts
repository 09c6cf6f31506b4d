import { sandboxExamples, sandboxPaymentMethods, sandboxRequirements } from "@payments-engine/adapters"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { expectDocumentedShape, fillRequirements, type Payer, setUpPayer } from "./support/payment-fixtures.ts"
import { startTestService, type TestResponse, type TestService } from "./support/test-service.ts"

/**
 * Payment methods, the bank-account requirements form and recipient bank accounts over HTTP, on
 * SQLite, with the sandbox payment provider.
 */
const sqlite = openTestSqlite({ file: true })
let service: TestService
let payer: Payer
beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory(), sandbox: true })
  payer = await setUpPayer(service, "accounts")
})
afterAll(async () => {
  await service.close()
  await sqlite.close()
})

const get = (path: string, token = payer.token) => service.request("GET", path, { token })
const post = (path: string, body: unknown, token = payer.token) => service.request("POST", path, { token, body })
const requirementsOf = (body: Record<string, string>) => post("/api/v1/bank_account_requirements", body)
const createAccount = (body: unknown, recipientId = payer.rid) =>
  post(`/api/v1/companies/${payer.cid}/recipients/${recipientId}/bank_accounts`, body)

/** The errors of an answer, sorted by field, to compare sets. */
const errorsOf = (response: TestResponse) =>
  [...(response.body?.errors ?? [])].sort((a: { field: string }, b: { field: string }) =>
    a.field.localeCompare(b.field),
  )

/** A copy of a sandbox example with some `bank_details` or `address` values changed (undefined removes). */
const changed = (
  example: keyof typeof sandboxExamples,
  changes: { bank_details?: Record<string, unknown>; address?: Record<string, unknown> },
) => {
  const details = structuredClone(sandboxExamples[example]) as unknown as Record<string, Record<string, unknown>>
  for (const part of ["bank_details", "address"] as const) {
    for (const [key, value] of Object.entries(changes[part] ?? {})) {
      if (value === undefined) delete details[part]![key]
      else details[part]![key] = value
    }
  }
  return details
}

describe("GET /api/v1/payment_methods", () => {
  it("lists the provider's transfer methods, whatever the letter case of the parameters", async () => {
    const expected = { data: sandboxPaymentMethods({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY" }) }
    for (const query of [
      "country_code=US&currency_code=USD&entity_type=COMPANY",
      "country_code=us&currency_code=usd&entity_type=company",
      "country_code=uS&currency_code=Usd&entity_type=Company",
    ]) {
      const response = await get(`/api/v1/payment_methods?${query}`)
      expectDocumentedShape(service.routes, "listPaymentMethods", response)
      expect(response.body).toEqual(expected)
    }
    expect((await get("/api/v1/payment_methods?country_code=gb&currency_code=gbp&entity_type=personal")).body).toEqual({
      data: sandboxPaymentMethods({ countryCode: "GB", currencyCode: "GBP", entityType: "PERSONAL" }),
    })
  })

  it("answers an empty list for a combination the provider does not serve", async () => {
    const response = await get("/api/v1/payment_methods?country_code=US&currency_code=EUR&entity_type=COMPANY")
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { data: [] } })
  })

  it("requires country_code, currency_code and entity_type (400) and checks them (422)", async () => {
    expectError(
      await get("/api/v1/payment_methods?currency_code=USD&entity_type=COMPANY"),
      400,
      "country_code",
      "country_code is required",
    )
    expectError(
      await get("/api/v1/payment_methods?country_code=%20&currency_code=USD&entity_type=COMPANY"),
      400,
      "country_code",
      "country_code is required",
    )
    const none = await get("/api/v1/payment_methods")
    expect(none.status).toBe(400)
    expect(errorsOf(none)).toEqual([
      { field: "country_code", message: "country_code is required" },
      { field: "currency_code", message: "currency_code is required" },
      { field: "entity_type", message: "entity_type is required" },
    ])
    const wrong = await get("/api/v1/payment_methods?country_code=XX&currency_code=ABC&entity_type=TRUST")
    expect(wrong.status).toBe(422)
    expect(errorsOf(wrong)).toEqual([
      { field: "country_code", message: "Invalid country code" },
      { field: "currency_code", message: "Invalid currency code" },
      { field: "entity_type", message: "must be one of: COMPANY, PERSONAL" },
    ])
    expectError(
      await get("/api/v1/payment_methods?country_code=US&country_code=GB&currency_code=USD&entity_type=COMPANY"),
      422,
      "country_code",
      "must be a string",
    )
    expectError(
      await service.request("GET", "/api/v1/payment_methods?country_code=US&currency_code=USD&entity_type=COMPANY"),
      401,
      "token",
      "Missing or invalid token",
    )
  })
})

describe("POST /api/v1/bank_account_requirements", () => {
  const us = { country_code: "us", currency_code: "usd", entity_type: "company" }
  type Field = { path: string; field: { default: string | null; refresh: boolean; label: string }; rule: unknown }
  const fieldAt = (response: TestResponse, path: string): Field | undefined =>
    response.body.data.fields.find((f: Field) => f.path === path)

  it("answers the provider's form for the parameters, in any letter case", async () => {
    const response = await requirementsOf(us)
    expectDocumentedShape(service.routes, "getBankAccountRequirements", response)
    const provider = sandboxRequirements({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY" })
    if (!provider.ok) throw new Error(provider.message)
    const { payment_method: _method, ...schema } = provider.schema
    expect(response.body).toEqual({ data: schema })
    expect(response.body.data.condition).toMatchObject({ transfer_method: "LOCAL", local_clearing_system: "ACH" })
    expect((await requirementsOf({ country_code: "US", currency_code: "USD", entity_type: "COMPANY" })).body).toEqual(
      response.body,
    )
  })

  it("changes the form when a refresh field changes", async () => {
    const ach = await requirementsOf({ ...us, local_clearing_system: "ach" })
    const refreshing = ach.body.data.fields.filter((f: Field) => f.field.refresh).map((f: Field) => f.path)
    expect(refreshing).toEqual(["entity_type", "transfer_methods", "bank_details.local_clearing_system"])

    const wire = await requirementsOf({ ...us, local_clearing_system: "fedwire" })
    expect(wire.body.data.condition.local_clearing_system).toBe("FEDWIRE")
    expect(fieldAt(wire, "bank_details.local_clearing_system")?.field.default).toBe("FEDWIRE")

    const swift = await requirementsOf({ ...us, transfer_method: "swift" })
    expect(swift.body.data.condition).toMatchObject({ transfer_method: "SWIFT", local_clearing_system: null })
    expect(fieldAt(swift, "bank_details.local_clearing_system")).toBeUndefined()
    expect(fieldAt(swift, "bank_details.account_routing_type1")?.field.default).toBe("swift")
    expect(fieldAt(ach, "bank_details.account_routing_value1")?.rule).toMatchObject({ type: "ABA_ROUTING_NUMBER" })
    expect(fieldAt(swift, "bank_details.account_routing_value1")?.rule).not.toMatchObject({
      type: "ABA_ROUTING_NUMBER",
    })

    const gbLocal = await requirementsOf({ country_code: "GB", currency_code: "GBP", entity_type: "COMPANY" })
    const gbSwift = await requirementsOf({
      country_code: "GB",
      currency_code: "GBP",
      entity_type: "COMPANY",
      transfer_method: "SWIFT",
    })
    expect(fieldAt(gbLocal, "bank_details.account_number")?.rule).not.toMatchObject({ type: "IBAN" })
    expect(fieldAt(gbSwift, "bank_details.account_number")?.rule).toMatchObject({ type: "IBAN" })

    const personal = await requirementsOf({ ...us, entity_type: "personal" })
    expect(personal.body.data.condition.entity_type).toBe("PERSONAL")
    expect(fieldAt(personal, "bank_details.account_name")?.field.label).not.toBe(
      fieldAt(ach, "bank_details.account_name")?.field.label,
    )
  })

  it("answers 422 base with the provider's message for a combination it does not support", async () => {
    const cases: Array<{
      country_code: string
      currency_code: string
      entity_type: string
      transfer_method?: string
      local_clearing_system?: string
    }> = [
      { country_code: "US", currency_code: "EUR", entity_type: "COMPANY" },
      { country_code: "BR", currency_code: "BRL", entity_type: "COMPANY" },
      { country_code: "US", currency_code: "USD", entity_type: "COMPANY", transfer_method: "CHEQUE" },
      { country_code: "US", currency_code: "USD", entity_type: "COMPANY", local_clearing_system: "SEPA" },
    ]
    for (const body of cases) {
      const answer = sandboxRequirements({
        countryCode: body.country_code,
        currencyCode: body.currency_code,
        entityType: "COMPANY",
        ...(body.transfer_method === undefined ? {} : { transferMethod: body.transfer_method }),
        ...(body.local_clearing_system === undefined ? {} : { localClearingSystem: body.local_clearing_system }),
      })
      if (answer.ok) throw new Error(`the sandbox supports ${JSON.stringify(body)}`)
      expectError(await post("/api/v1/bank_account_requirements", body), 422, "base", answer.message)
    }
  })

  it("requires the three parameters and a JSON object body", async () => {
    expectError(
      await requirementsOf({ currency_code: "USD", entity_type: "COMPANY" }),
      400,
      "country_code",
      "country_code is required",
    )
    expectError(await post("/api/v1/bank_account_requirements", ["US"]), 400, "body", "Body must be a JSON object")
    expectError(
      await requirementsOf({
        country_code: "US",
        currency_code: "USD",
        entity_type: "COMPANY",
        transfer_method: 1,
      } as never),
      422,
      "transfer_method",
      "must be a string",
    )
  })
})

describe("POST /api/v1/companies/{cid}/recipients/{recipient_id}/bank_accounts", () => {
  it("creates an account for every sandbox example, filled from its form, showing only a mask", async () => {
    const bodies: Array<string> = []
    for (const [name, example] of Object.entries(sandboxExamples)) {
      const { bank_details: bank } = example
      const form = await requirementsOf({
        country_code: bank.bank_country_code,
        currency_code: bank.account_currency,
        entity_type: example.entity_type,
        transfer_method: example.transfer_methods[0] as string,
        ...(bank.local_clearing_system === undefined ? {} : { local_clearing_system: bank.local_clearing_system }),
      })
      expect(form.status, `${name}: ${form.text}`).toBe(200)
      const created = await createAccount({
        entity_id: payer.eid,
        beneficiary_details: fillRequirements(form.body.data, example),
      })
      expect(created.status, `${name}: ${created.text}`).toBe(201)
      expectDocumentedShape(service.routes, "createRecipientBankAccount", created)
      const iban = form.body.data.fields.some(
        (f: { path: string; rule: { type: string } | null }) =>
          f.path === "bank_details.account_number" && f.rule?.type === "IBAN",
      )
      const compact = bank.account_number.replace(/\s+/g, "")
      expect(created.body.data, name).toMatchObject({
        currency: bank.account_currency,
        owner_type: "Counterparty",
        owner_id: payer.rid,
        current_balance: "0.00",
        last_synced_at: null,
        account_details: [
          {
            account_number_mask: `****${compact.slice(-Math.min(4, Math.floor(compact.length / 2)))}`,
            account_number_type: iban ? "iban" : "other",
          },
        ],
        party_address: { country_code: bank.bank_country_code, city: example.address.city },
        payment_profiles: [{ usage_type: "credit", status: "active", currency: bank.account_currency }],
      })
      bodies.push(created.text)
      const fetched = await get(`/api/v1/companies/${payer.cid}/bank_accounts/${created.body.data.id}`)
      expect(fetched.body.data, name).toEqual(created.body.data)
      bodies.push(fetched.text)
    }
    const list = await get(`/api/v1/companies/${payer.cid}/bank_accounts?per_page=100`)
    bodies.push(list.text, (await get(`/api/v1/companies/${payer.cid}/recipients/${payer.rid}`)).text)
    bodies.push((await get(`/api/v1/companies/${payer.cid}/recipients`)).text)
    const fullNumbers = Object.values(sandboxExamples).map((example) => example.bank_details.account_number)
    const logs = service.logs.join("\n")
    for (const number of new Set(fullNumbers)) {
      for (const body of bodies) expect(body).not.toContain(number)
      expect(logs).not.toContain(number)
    }
  })

  it("reports every failing field at once, with its dotted path: ABA, IBAN and CLABE checksums", async () => {
    const aba = await createAccount({
      entity_id: payer.eid,
      beneficiary_details: changed("US_ACH", {
        bank_details: { account_routing_value1: "021000022", account_number: "12" },
        address: { city: undefined },
      }),
    })
    expect(aba.status).toBe(422)
    expect(errorsOf(aba)).toEqual([
      { field: "beneficiary_details.address.city", message: "is required" },
      { field: "beneficiary_details.bank_details.account_number", message: "is too short (minimum is 4 characters)" },
      {
        field: "beneficiary_details.bank_details.account_routing_value1",
        message: "is not a valid ABA routing number",
      },
    ])

    const iban = await createAccount({
      entity_id: payer.eid,
      beneficiary_details: changed("DE_SEPA", {
        bank_details: { account_number: "DE00370400440532013000", account_name: " " },
      }),
    })
    expect(iban.status).toBe(422)
    expect(errorsOf(iban)).toEqual([
      { field: "beneficiary_details.bank_details.account_name", message: "is required" },
      { field: "beneficiary_details.bank_details.account_number", message: "is not a valid IBAN" },
    ])

    const clabe = await createAccount({
      entity_id: payer.eid,
      beneficiary_details: changed("MX_SPEI", { bank_details: { account_number: "002010077777777772" } }),
    })
    expectError(clabe, 422, "beneficiary_details.bank_details.account_number", "is not a valid CLABE")

    for (const response of [aba, iban, clabe]) {
      for (const number of ["021000022", "DE00370400440532013000", "002010077777777772"]) {
        expect(response.text).not.toContain(number)
      }
    }
  })

  it("refuses an IBAN whose national part has the wrong format though its mod-97 check passes: 422", async () => {
    // a German account number is 18 digits; the hand-written mod-97 check created this account (201)
    const wrongFormat = "DE893S0400440532013000"
    for (const example of ["DE_SEPA", "DE_SWIFT"] as const) {
      const response = await createAccount({
        entity_id: payer.eid,
        beneficiary_details: changed(example, { bank_details: { account_number: wrongFormat } }),
      })
      expectError(response, 422, "beneficiary_details.bank_details.account_number", "is not a valid IBAN")
      expect(response.text).not.toContain(wrongFormat)
    }
  })

  it("names what decides the form when it is missing, and passes the provider's refusal on", async () => {
    const noCountry = await createAccount({
      entity_id: payer.eid,
      beneficiary_details: changed("US_ACH", { bank_details: { bank_country_code: undefined, account_currency: "" } }),
    })
    expect(noCountry.status).toBe(422)
    expect(errorsOf(noCountry)).toEqual([
      { field: "beneficiary_details.bank_details.account_currency", message: "is required" },
      { field: "beneficiary_details.bank_details.bank_country_code", message: "is required" },
    ])
    expectError(
      await createAccount({
        entity_id: payer.eid,
        beneficiary_details: { ...sandboxExamples.US_ACH, entity_type: "TRUST" },
      }),
      422,
      "beneficiary_details.entity_type",
      "must be one of: COMPANY, PERSONAL",
    )
    const answer = sandboxRequirements({ countryCode: "BR", currencyCode: "BRL", entityType: "COMPANY" })
    if (answer.ok) throw new Error("the sandbox supports BR")
    expectError(
      await createAccount({
        entity_id: payer.eid,
        beneficiary_details: changed("US_ACH", { bank_details: { bank_country_code: "BR", account_currency: "BRL" } }),
      }),
      422,
      "base",
      answer.message,
    )
  })

  it("answers the spec's errors for a missing body, an unknown recipient, company or entity, and a read key", async () => {
    const empty = await createAccount({})
    expect(empty.status).toBe(400)
    expect(errorsOf(empty)).toEqual([
      { field: "beneficiary_details", message: "Beneficiary details are required" },
      { field: "entity_id", message: "Entity ID is required" },
    ])
    expectError(
      await createAccount({ entity_id: payer.eid, beneficiary_details: "US" }),
      422,
      "beneficiary_details",
      "must be an object",
    )
    const body = { entity_id: payer.eid, beneficiary_details: sandboxExamples.US_ACH }
    expectError(
      await createAccount(body, "rcp_missing"),
      404,
      "id",
      "Recipient not found or not accessible in this workspace",
    )
    expectError(
      await post("/api/v1/companies/cmp_missing/recipients/rcp_missing/bank_accounts", body),
      404,
      "company_id",
      "Company not found or not accessible in this workspace",
    )
    const other = await setUpPayer(service, "accounts")
    expectError(
      await createAccount({ ...body, entity_id: other.eid }),
      422,
      "entity_id",
      "Entity does not belong to this company",
    )
    const stranger = await service.signIn("strangers")
    expectError(
      await post(`/api/v1/companies/${payer.cid}/recipients/${payer.rid}/bank_accounts`, body, stranger),
      404,
      "company_id",
      "Company not found or not accessible in this workspace",
    )
    const reader = await service.signIn("accounts", "read")
    expectError(
      await post(`/api/v1/companies/${payer.cid}/recipients/${payer.rid}/bank_accounts`, body, reader),
      403,
      "base",
      "API key does not have permission for this action",
    )
    const gone = (await post(`/api/v1/companies/${payer.cid}/recipients`, { name: "Gone" })).body.data.id
    expect(
      (await service.request("DELETE", `/api/v1/companies/${payer.cid}/recipients/${gone}`, { token: payer.token }))
        .status,
    ).toBe(204)
    expectError(await createAccount(body, gone), 404, "id", "Recipient not found or not accessible in this workspace")
  })

  it("replays a create sent again with the same Idempotency-Key, creating one account", async () => {
    const before = (await get(`/api/v1/companies/${payer.cid}/bank_accounts`)).body.meta.total_records
    const send = () =>
      service.request("POST", `/api/v1/companies/${payer.cid}/recipients/${payer.rid}/bank_accounts`, {
        token: payer.token,
        body: { entity_id: payer.eid, beneficiary_details: sandboxExamples.GB_FPS },
        headers: { "Idempotency-Key": "gb-account-1" },
      })
    const first = await send()
    const again = await send()
    expect(first.status).toBe(201)
    expect({ status: again.status, body: again.body }).toEqual({ status: 201, body: first.body })
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect((await get(`/api/v1/companies/${payer.cid}/bank_accounts`)).body.meta.total_records).toBe(before + 1)
  })
})

describe("GET /api/v1/companies/{cid}/bank_accounts", () => {
  it("pages the company's accounts, 25 by default, funding accounts with their debit profile", async () => {
    const first = await get(`/api/v1/companies/${payer.cid}/bank_accounts`)
    expectDocumentedShape(service.routes, "listBankAccounts", first)
    expect(first.body.meta).toMatchObject({ current_page: 1, per_page: 25 })
    expect(first.body.data.length).toBe(Math.min(25, first.body.meta.total_records))
    expect(first.body.data[1]).toMatchObject({
      owner_type: "Entity",
      owner_id: payer.eid,
      payment_profiles: [{ id: payer.fromProfile, usage_type: "debit", status: "active" }],
    })
    const second = await get(`/api/v1/companies/${payer.cid}/bank_accounts?page=2&per_page=1`)
    expect(second.body.data).toEqual([first.body.data[1]])
    expect(second.body.links).toMatchObject({
      first: `/api/v1/companies/${payer.cid}/bank_accounts?page=1&per_page=1`,
      prev: `/api/v1/companies/${payer.cid}/bank_accounts?page=1&per_page=1`,
    })
    expectError(
      await get(`/api/v1/companies/${payer.cid}/bank_accounts?per_page=0`),
      400,
      "per_page",
      "must be an integer greater than or equal to 1",
    )
  })

  it("answers 404 for an unknown account, another company's, or an unknown company", async () => {
    const other = await setUpPayer(service, "accounts")
    const otherAccount = (await get(`/api/v1/companies/${other.cid}/bank_accounts`, other.token)).body.data[0].id
    for (const id of ["ba_missing", otherAccount]) {
      expectError(
        await get(`/api/v1/companies/${payer.cid}/bank_accounts/${id}`),
        404,
        "id",
        "Bank Account not found or not accessible in this workspace",
      )
    }
    expectError(
      await get("/api/v1/companies/cmp_missing/bank_accounts"),
      404,
      "company_id",
      "Company not found or not accessible in this workspace",
    )
    expect((await service.request("GET", `/api/v1/companies/${payer.cid}/bank_accounts`)).status).toBe(401)
  })
})
