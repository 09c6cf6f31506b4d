import { sandboxExamples } from "@payments-engine/adapters"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { defaultFeeSchedule } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import {
  addRecipientAccount,
  expectDocumentedShape,
  insertUnconnectedDebitProfile,
  type Payer,
  quoteBody,
  setUpPayer,
} from "./support/payment-fixtures.ts"
import { activateIntegration, startTestService, type TestService } from "./support/test-service.ts"

/**
 * Quotes over HTTP on SQLite: exact amounts of the default fee schedule (core
 * `rules/fee-schedule.ts`) and the sandbox's fixed rates, and the spec's quote errors.
 * The test clock starts on Thursday 2026-01-01 and does not move here.
 */
const sqlite = openTestSqlite({ file: true })
let service: TestService
let payer: Payer
beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory(), sandbox: true })
  payer = await setUpPayer(service, "quotes")
})
afterAll(async () => {
  await service.close()
  await sqlite.close()
})

const quote = (body: unknown, token = payer.token, cid = payer.cid) =>
  service.request("POST", `/api/v1/companies/${cid}/quotes`, { token, body })
const expiresAt = () => new Date(service.clock.now().getTime() + 15 * 60 * 1000).toISOString()

describe("same-currency quotes", () => {
  it("prices net and gross with the ACH fee of the default schedule", async () => {
    expect(defaultFeeSchedule.methods.ach).toEqual({ fixed: { USD: "0.25" }, basisPoints: 0 })
    const net = await quote(quoteBody(payer.fromProfile, payer.toProfile, 1234.56))
    expectDocumentedShape(service.routes, "createQuote", net)
    expect(net.body.data).toEqual({
      id: expect.stringMatching(/^qt_/),
      instructed_amount: "1234.56",
      instructed_amount_currency: "USD",
      source_amount: "1234.81",
      source_amount_currency: "USD",
      target_amount: "1234.56",
      target_amount_currency: "USD",
      currency_pair: null,
      exchange_rate: 1,
      fee: "0.25",
      fee_currency: "USD",
      fee_strategy: "net",
      expires_at: expiresAt(),
      expected_completion_date: "2026-01-02",
      from_profile: {
        id: payer.fromProfile,
        status: "active",
        payment_method: "ach",
        currency: "USD",
        usage_type: "debit",
      },
      to_profile: {
        id: payer.toProfile,
        status: "active",
        payment_method: "ach",
        currency: "USD",
        usage_type: "credit",
      },
    })
    const gross = await quote(quoteBody(payer.fromProfile, payer.toProfile, 1234.56, "usd", { fee_strategy: "gross" }))
    expect(gross.status).toBe(201)
    expect(gross.body.data).toMatchObject({
      instructed_amount: "1234.56",
      source_amount: "1234.56",
      target_amount: "1234.31",
      fee: "0.25",
      fee_strategy: "gross",
    })
    const whole = await quote(quoteBody(payer.fromProfile, payer.toProfile, 10))
    expect(whole.body.data).toMatchObject({
      instructed_amount: "10.00",
      source_amount: "10.25",
      target_amount: "10.00",
    })
  })

  it("takes the wire fee for a Fedwire account, paid the same day", async () => {
    expect(defaultFeeSchedule.methods.wire).toEqual({ fixed: { USD: "15.00" }, basisPoints: 0 })
    const wire = await addRecipientAccount(service, payer, sandboxExamples.US_FEDWIRE)
    const net = await quote(quoteBody(payer.fromProfile, wire, 100))
    expect(net.body.data).toMatchObject({
      source_amount: "115.00",
      target_amount: "100.00",
      fee: "15.00",
      expected_completion_date: "2026-01-01",
      to_profile: { payment_method: "wire" },
    })
    const gross = await quote(quoteBody(payer.fromProfile, wire, 100, "USD", { fee_strategy: "gross" }))
    expect(gross.body.data).toMatchObject({ source_amount: "100.00", target_amount: "85.00", fee: "15.00" })
    expectError(
      await quote(quoteBody(payer.fromProfile, wire, 15, "USD", { fee_strategy: "gross" })),
      422,
      "instructed_amount",
      "Instructed amount must be greater than the fee",
    )
  })
})

describe("cross-currency quotes", () => {
  // USD -> EUR mid 0.92 (sandbox), less the 50 bp margin: 0.9154. SWIFT: 25.00 USD + 10 bp.
  it("are refused until the entity's payment integration is active, then priced net and gross", async () => {
    expect(defaultFeeSchedule.fxMarginBasisPoints).toBe(50)
    expect(defaultFeeSchedule.methods.swift).toMatchObject({ basisPoints: 10, fixed: { USD: "25.00" } })
    const euros = await addRecipientAccount(service, payer, sandboxExamples.DE_SWIFT)
    expectError(
      await quote(quoteBody(payer.fromProfile, euros, 1000, "EUR")),
      422,
      "base",
      "no active payment-provider account found for the entity",
    )
    await activateIntegration(service.storage, payer.cid, payer.eid)

    const netInTarget = await quote(quoteBody(payer.fromProfile, euros, 1000, "EUR"))
    expectDocumentedShape(service.routes, "createQuote", netInTarget)
    expect(netInTarget.body.data).toMatchObject({
      instructed_amount: "1000.00",
      instructed_amount_currency: "EUR",
      // 1000 / 0.9154 = 1092.4186... -> 1092.42; fee 25.00 + 0.10 % of 1092.42 = 26.09
      source_amount: "1118.51",
      source_amount_currency: "USD",
      target_amount: "1000.00",
      target_amount_currency: "EUR",
      currency_pair: "USDEUR",
      exchange_rate: 0.9154,
      fee: "26.09",
      fee_currency: "USD",
      fee_strategy: "net",
      // SWIFT: two business days after Thursday 2026-01-01
      expected_completion_date: "2026-01-05",
      expires_at: expiresAt(),
    })
    const netInSource = await quote(quoteBody(payer.fromProfile, euros, 1000, "USD"))
    expect(netInSource.body.data).toMatchObject({
      instructed_amount: "1000.00",
      instructed_amount_currency: "USD",
      source_amount: "1026.00",
      target_amount: "915.40",
      fee: "26.00",
    })
    const gross = await quote(quoteBody(payer.fromProfile, euros, 1000, "USD", { fee_strategy: "gross" }))
    expect(gross.body.data).toMatchObject({
      source_amount: "1000.00",
      // (1000 - 26.00) * 0.9154 = 891.5996
      target_amount: "891.60",
      fee: "26.00",
      fee_strategy: "gross",
    })
    expectError(
      await quote(quoteBody(payer.fromProfile, euros, 1000, "EUR", { fee_strategy: "gross" })),
      422,
      "fee_strategy",
      "Gross quotes must be instructed in the source currency",
    )
  })

  it("formats a currency without minor units, and charges other methods their basis points", async () => {
    await activateIntegration(service.storage, payer.cid, payer.eid)
    expect(defaultFeeSchedule.methods.zengin).toBeUndefined()
    expect(defaultFeeSchedule.other).toEqual({ fixed: {}, basisPoints: 30 })
    const yen = await addRecipientAccount(service, payer, sandboxExamples.JP_ZENGIN)
    const net = await quote(quoteBody(payer.fromProfile, yen, 10000, "JPY"))
    expect(net.body.data).toMatchObject({
      instructed_amount: "10000",
      target_amount: "10000",
      target_amount_currency: "JPY",
      // 149.5 * 0.995 = 148.7525; 10000 / 148.7525 = 67.2257... -> 67.23; 0.30 % of it = 0.20
      exchange_rate: 148.7525,
      currency_pair: "USDJPY",
      source_amount: "67.43",
      fee: "0.20",
    })
    expectError(
      await quote(quoteBody(payer.fromProfile, yen, 100.5, "JPY")),
      422,
      "instructed_amount",
      "Amount has too many decimal places for JPY",
    )
  })
})

describe("quote errors", () => {
  it("checks the amount: above zero, at most a billion, the currency's decimals, a profile's currency", async () => {
    const body = (amount: number, currency = "USD") => quoteBody(payer.fromProfile, payer.toProfile, amount, currency)
    for (const amount of [0, -5]) {
      expectError(await quote(body(amount)), 422, "instructed_amount", "Instructed amount must be greater than zero")
    }
    expectError(await quote(body(1_000_000_000.01)), 422, "instructed_amount", "Instructed amount exceeds the maximum")
    expect((await quote(body(1_000_000_000))).status).toBe(201)
    expectError(await quote(body(10.001)), 422, "instructed_amount", "Amount has too many decimal places for USD")
    expectError(
      await quote(body(10, "EUR")),
      422,
      "instructed_amount",
      "Currency must match the source or target profile",
    )
    const asText = quoteBody(payer.fromProfile, payer.toProfile, 10)
    ;(asText.quote.instructed_amount as { amount: unknown }).amount = "10"
    expectError(await quote(asText), 422, "instructed_amount.amount", "must be a number")
  })

  it("names every missing field, 400", async () => {
    expectError(await quote({}), 400, "quote", "Quote is required")
    expectError(await quote({ quote: "q" }), 422, "quote", "must be an object")
    const missing = await quote({ quote: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([
        { field: "from_profile_id", message: "From profile ID is required" },
        { field: "to_profile_id", message: "To profile ID is required" },
        { field: "instructed_amount", message: "Instructed amount is required" },
      ]),
    )
    expect(missing.body.errors).toHaveLength(3)
    expectError(
      await quote({
        quote: {
          from_profile_id: payer.fromProfile,
          to_profile_id: payer.toProfile,
          instructed_amount: { currency: "USD" },
        },
      }),
      400,
      "instructed_amount.amount",
      "Amount is required",
    )
    expectError(
      await quote(quoteBody(payer.fromProfile, payer.toProfile, 10, "USD", { fee_strategy: "both" })),
      422,
      "fee_strategy",
      "must be one of: net, gross",
    )
  })

  it("checks both profiles with the spec's messages", async () => {
    const cases: Array<[from: string, to: string, field: string, message: string]> = [
      ["pp_missing", payer.toProfile, "from_profile_id", "From profile not found"],
      [
        payer.toProfile,
        payer.toProfile,
        "from_profile_id",
        "From profile must be a debit or balance profile of an entity of this company",
      ],
      [payer.fromProfile, "pp_missing", "to_profile_id", "To profile not found"],
      [
        payer.fromProfile,
        payer.fromProfile,
        "to_profile_id",
        "To profile must be a credit profile of a recipient of this company",
      ],
    ]
    for (const [from, to, field, message] of cases) {
      expectError(await quote(quoteBody(from, to, 10)), 422, field, message)
    }
    const unconnected = await insertUnconnectedDebitProfile(service.storage, payer.cid, payer.fromProfile)
    expectError(
      await quote(quoteBody(unconnected, payer.toProfile, 10)),
      422,
      "from_profile_id",
      "From profile does not have any connections",
    )
    const other = await setUpPayer(service, "quotes")
    expectError(
      await quote(quoteBody(other.fromProfile, payer.toProfile, 10)),
      422,
      "from_profile_id",
      "From profile not found",
    )
    const leaving = await setUpPayer(service, "quotes")
    const deleted = await service.request("DELETE", `/api/v1/companies/${leaving.cid}/recipients/${leaving.rid}`, {
      token: leaving.token,
    })
    expect(deleted.status).toBe(204)
    expectError(
      await quote(quoteBody(leaving.fromProfile, leaving.toProfile, 10), leaving.token, leaving.cid),
      422,
      "to_profile_id",
      "To profile's recipient has been deleted",
    )
  })

  it("answers 404 for another workspace's or an unknown company, 403 for a read key, 401 without a token", async () => {
    const body = quoteBody(payer.fromProfile, payer.toProfile, 10)
    const stranger = await service.signIn("quote-strangers")
    for (const [token, cid] of [
      [stranger, payer.cid],
      [payer.token, "cmp_missing"],
    ] as const) {
      expectError(
        await quote(body, token, cid),
        404,
        "company_id",
        "Company not found or not accessible in this workspace",
      )
    }
    // The company is part of the path: without one there is no route (the spec's 400 "Company ID
    // is required" belongs to APIs that take it in the body).
    expectError(await quote(body, payer.token, ""), 404, "path", "Not found")
    expectError(
      await quote(body, await service.signIn("quotes", "read")),
      403,
      "base",
      "API key does not have permission for this action",
    )
    expectError(
      await service.request("POST", `/api/v1/companies/${payer.cid}/quotes`, { body }),
      401,
      "token",
      "Missing or invalid token",
    )
  })

  it("replays a quote created with the same Idempotency-Key and refuses the key for another body", async () => {
    const send = (amount: number) =>
      service.request("POST", `/api/v1/companies/${payer.cid}/quotes`, {
        token: payer.token,
        body: quoteBody(payer.fromProfile, payer.toProfile, amount),
        headers: { "Idempotency-Key": "quote-key-1" },
      })
    const first = await send(42)
    const again = await send(42)
    expect(first.status).toBe(201)
    expect({ status: again.status, body: again.body }).toEqual({ status: 201, body: first.body })
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expectError(await send(43), 422, "Idempotency-Key", "Idempotency key reused with different parameters")
  })
})
