import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sandboxExamples } from "@payments-engine/adapters"
import pino from "pino"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadConfig } from "../src/config.ts"
import { type RunningService, startService } from "../src/server.ts"
import { fastHasher } from "./support/test-service.ts"

let service: RunningService
let folder: string
let token: string
let companyId: string
let entityId: string

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? null : JSON.parse(text), text }
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "pe-money-"))
  const lines: string[] = []
  service = await startService(loadConfig({ PORT: "0", DATABASE_URL: `sqlite:${join(folder, "db.sqlite")}` }), {
    logger: pino({ level: "silent" }),
    print: (line) => lines.push(line),
    hasher: fastHasher(),
    host: "127.0.0.1",
  })
  const [key, secret] = lines.map((line) => line.split(": ")[1])
  const session = await fetch(`${service.url}/api/v1/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api_key: key, api_secret: secret }),
  })
  token = ((await session.json()) as { data: { access_token: string } }).data.access_token
  companyId = (await api("POST", "/api/v1/companies", { name: "Acme", country: "US", default_currency: "USD" })).body
    .data.id
  entityId = (await api("POST", `/api/v1/companies/${companyId}/entities`, { name: "Acme", country_alpha2: "US" })).body
    .data.id
})

afterAll(async () => {
  await service.close()
  rmSync(folder, { recursive: true, force: true })
})

describe("paying a recipient over HTTP in the sandbox", () => {
  it("reads methods and requirements, adds a bank account, links a funding account, quotes, pays and sees the payment complete", async () => {
    const methods = await api("GET", "/api/v1/payment_methods?country_code=us&currency_code=usd&entity_type=company")
    expect(methods).toMatchObject({
      status: 200,
      body: {
        data: [{ transfer_method: "LOCAL", local_clearing_systems: ["ACH", "FEDWIRE"] }, { transfer_method: "SWIFT" }],
      },
    })
    const missing = await api("GET", "/api/v1/payment_methods?currency_code=usd&entity_type=company")
    expect(missing).toMatchObject({
      status: 400,
      body: { errors: [{ field: "country_code", message: "country_code is required" }] },
    })
    const requirements = await api("POST", "/api/v1/bank_account_requirements", {
      country_code: "us",
      currency_code: "USD",
      entity_type: "COMPANY",
      local_clearing_system: "ach",
    })
    expect(requirements.status).toBe(200)
    expect(requirements.body.data.condition).toMatchObject({ local_clearing_system: "ACH", transfer_method: "LOCAL" })
    expect(requirements.body.data).not.toHaveProperty("payment_method")
    const refused = await api("POST", "/api/v1/bank_account_requirements", {
      country_code: "US",
      currency_code: "EUR",
      entity_type: "COMPANY",
    })
    expect(refused).toMatchObject({
      status: 422,
      body: { errors: [{ field: "base", message: "Bank country US does not support currency EUR" }] },
    })

    const recipient = (await api("POST", `/api/v1/companies/${companyId}/recipients`, { name: "Supplier" })).body.data
    const account = await api("POST", `/api/v1/companies/${companyId}/recipients/${recipient.id}/bank_accounts`, {
      entity_id: entityId,
      beneficiary_details: sandboxExamples.US_ACH,
    })
    expect(account.status).toBe(201)
    expect(account.text).not.toContain("123456789")
    expect(account.body.data.payment_profiles[0]).toMatchObject({ usage_type: "credit", status: "active" })
    const funding = await api("POST", `/api/v1/sandbox/entities/${entityId}/funding_accounts`, {})
    expect(funding.body.data.payment_profiles[0]).toMatchObject({
      usage_type: "debit",
      status: "active",
      payment_method: "ach",
    })

    const quote = await api("POST", `/api/v1/companies/${companyId}/quotes`, {
      quote: {
        from_profile_id: funding.body.data.payment_profiles[0].id,
        to_profile_id: account.body.data.payment_profiles[0].id,
        instructed_amount: { amount: 250.5, currency: "USD" },
      },
    })
    expect(quote).toMatchObject({
      status: 201,
      body: { data: { source_amount: "250.75", target_amount: "250.50", fee: "0.25" } },
    })
    const payment = await api("POST", `/api/v1/companies/${companyId}/payments`, {
      payment_instruction: {
        payment_quote_id: quote.body.data.id,
        reason: "goods_purchased",
        idempotency_key: "inv-1",
      },
    })
    expect(payment).toMatchObject({ status: 201, body: { data: { status: "pending" } } })
    const again = await api("POST", `/api/v1/companies/${companyId}/payments`, {
      payment_instruction: {
        payment_quote_id: quote.body.data.id,
        reason: "goods_purchased",
        idempotency_key: "inv-1",
      },
    })
    expect(again).toMatchObject({ status: 200, body: { data: { id: payment.body.data.id } } })

    const advanced = await api("POST", "/api/v1/sandbox/clock/advance", { seconds: 0 })
    expect(advanced.status).toBe(200)
    const done = await api("GET", `/api/v1/companies/${companyId}/payments/${payment.body.data.id}`)
    expect(done.body.data).toMatchObject({ status: "completed", idempotency_key: "inv-1" })
    const listed = await api("GET", `/api/v1/companies/${companyId}/payments?status=completed`)
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([payment.body.data.id])
    expect(await api("GET", `/api/v1/companies/${companyId}/payments?status=done`)).toMatchObject({
      status: 400,
      body: { errors: [{ field: "status", message: "Invalid status" }] },
    })

    const expiring = await api("POST", `/api/v1/companies/${companyId}/quotes`, {
      quote: {
        from_profile_id: funding.body.data.payment_profiles[0].id,
        to_profile_id: account.body.data.payment_profiles[0].id,
        instructed_amount: { amount: 10, currency: "USD" },
      },
    })
    await api("POST", "/api/v1/sandbox/clock/advance", { seconds: 15 * 60 })
    expect(
      await api("POST", `/api/v1/companies/${companyId}/payments`, {
        payment_instruction: { payment_quote_id: expiring.body.data.id, reason: "taxes", idempotency_key: "late" },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ field: "payment_quote_id", message: "Quote has expired" }] } })
    expect(await api("POST", "/api/v1/sandbox/clock/advance", { seconds: -1 })).toMatchObject({ status: 422 })
  })

  it("answers the spec's errors for quotes, payments and bank accounts with their exact messages", async () => {
    const expectError = async (
      response: Promise<{ status: number; body: unknown }>,
      status: number,
      field: string,
      message: string,
    ) => expect(await response).toMatchObject({ status, body: { errors: [{ field, message }] } })
    const recipient = (await api("POST", `/api/v1/companies/${companyId}/recipients`, { name: "Errors Ltd" })).body.data
    const account = (
      await api("POST", `/api/v1/companies/${companyId}/recipients/${recipient.id}/bank_accounts`, {
        entity_id: entityId,
        beneficiary_details: sandboxExamples.US_ACH,
      })
    ).body.data
    const funding = (await api("POST", `/api/v1/sandbox/entities/${entityId}/funding_accounts`, {})).body.data
    const quoteBody = (amount: number, currency = "USD") => ({
      quote: {
        from_profile_id: funding.payment_profiles[0].id,
        to_profile_id: account.payment_profiles[0].id,
        instructed_amount: { amount, currency },
      },
    })
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/quotes`, quoteBody(0)),
      422,
      "instructed_amount",
      "Instructed amount must be greater than zero",
    )
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/quotes`, quoteBody(-3)),
      422,
      "instructed_amount",
      "Instructed amount must be greater than zero",
    )
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/quotes`, quoteBody(1_000_000_001)),
      422,
      "instructed_amount",
      "Instructed amount exceeds the maximum",
    )
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/quotes`, quoteBody(10, "EUR")),
      422,
      "instructed_amount",
      "Currency must match the source or target profile",
    )
    await expectError(api("POST", `/api/v1/companies/${companyId}/quotes`, {}), 400, "quote", "Quote is required")
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/quotes`, { quote: { ...quoteBody(10).quote, fee_strategy: "both" } }),
      422,
      "fee_strategy",
      "must be one of: net, gross",
    )
    const swapped = { quote: { ...quoteBody(10).quote, from_profile_id: account.payment_profiles[0].id } }
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/quotes`, swapped),
      422,
      "from_profile_id",
      "From profile must be a debit or balance profile of an entity of this company",
    )
    const quote = (await api("POST", `/api/v1/companies/${companyId}/quotes`, quoteBody(10))).body.data
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/payments`, {
        payment_instruction: { payment_quote_id: quote.id, reason: "taxes" },
      }),
      422,
      "idempotency_key",
      "Idempotency key is required",
    )
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/payments`, {
        payment_instruction: { payment_quote_id: quote.id, reason: "gifts", idempotency_key: "r" },
      }),
      422,
      "reason",
      "is not a valid reason",
    )
    await expectError(
      api("GET", `/api/v1/companies/${companyId}/payments/pay_missing`),
      404,
      "id",
      "Payment Instruction not found or not accessible in this workspace",
    )
    await expectError(
      api("GET", `/api/v1/companies/${companyId}/bank_accounts/ba_missing`),
      404,
      "id",
      "Bank Account not found or not accessible in this workspace",
    )
    const paid = await api("POST", `/api/v1/companies/${companyId}/payments`, {
      payment_instruction: { payment_quote_id: quote.id, reason: "taxes", idempotency_key: "errors-1" },
    })
    await api("POST", "/api/v1/sandbox/clock/advance", { seconds: 0 })
    await expectError(
      api("POST", `/api/v1/companies/${companyId}/payments/${paid.body.data.id}/cancel`),
      422,
      "status",
      "Payment cannot be cancelled in status completed",
    )
  })
})
