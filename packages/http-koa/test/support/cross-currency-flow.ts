import { sandboxExamples } from "@payments-engine/adapters"
import { expect } from "vitest"
import { expectError } from "./expectations.ts"
import { documentedClient, expectDocumentedShape, paymentBody, quoteBody } from "./payment-fixtures.ts"
import type { TestService } from "./test-service.ts"

/** An amount with two decimals ("1118.51") as integer cents, so consistency checks stay exact. */
const cents = (amount: string): bigint => {
  const match = /^(\d+)\.(\d{2})$/.exec(amount)
  if (match === null) throw new Error(`expected an amount with two decimals, got ${JSON.stringify(amount)}`)
  return BigInt(match[1] as string) * 100n + BigInt(match[2] as string)
}

/** A rate with at most 8 decimals as an integer of 10^-8 units. */
const rateUnits = (rate: number): bigint => BigInt(Math.round(rate * 1e8))

/**
 * The amounts of a quote agree with its rate up to the one rounding of the computed amount:
 * |principal * rate - target| is at most half a cent of the target (gross, where the target is
 * rounded) plus half a cent of the source times the rate (net, where the principal is).
 */
const expectConverted = (principal: string, rate: number, target: string) => {
  const gap = cents(principal) * rateUnits(rate) - cents(target) * 100_000_000n
  expect(2n * (gap < 0n ? -gap : gap) <= 100_000_000n + rateUnits(rate), `${principal} * ${rate} ~ ${target}`).toBe(
    true,
  )
}

/**
 * The black-box flow of a client paying across currencies, on one sandbox test service: a US
 * entity with a sandbox funding account (USD) and a recipient account in EUR (`DE_SWIFT`); the
 * USD -> EUR quote is refused until the entity's multi-currency account is enabled and moved
 * SUBMITTED, then ACTIVE with the sandbox helper; then net and gross quotes price at the sandbox
 * rate less the margin, and the net one is paid to completion.
 */
export const crossCurrencyFlow = async (service: TestService): Promise<void> => {
  const { token, call, companyWithEntity } = await documentedClient(service, "cross-currency")
  const { cid, eid } = await companyWithEntity()
  const funding = await call(
    "sandboxLinkFundingAccount",
    "POST",
    `/api/v1/sandbox/entities/${eid}/funding_accounts`,
    {},
  )
  const from = funding.body.data.payment_profiles[0].id
  const rid = (await call("createRecipient", "POST", `/api/v1/companies/${cid}/recipients`, { name: "Euro Supplier" }))
    .body.data.id
  const account = await call(
    "createRecipientBankAccount",
    "POST",
    `/api/v1/companies/${cid}/recipients/${rid}/bank_accounts`,
    { entity_id: eid, beneficiary_details: sandboxExamples.DE_SWIFT },
  )
  expect(account.body.data.payment_profiles[0]).toMatchObject({ currency: "EUR", payment_method: "swift" })
  const to = account.body.data.payment_profiles[0].id
  const quote = (amount: number, currency: string, extra: Record<string, unknown> = {}) =>
    service.request("POST", `/api/v1/companies/${cid}/quotes`, {
      token,
      body: quoteBody(from, to, amount, currency, extra),
    })
  const noAccount = async () =>
    expectError(await quote(1000, "EUR"), 422, "base", "no active payment-provider account found for the entity")
  await noAccount()

  const enabled = await call("enableFeature", "POST", `/api/v1/companies/${cid}/entities/${eid}/features`, {
    feature_identifier: "multi_currency_account",
  })
  expect(enabled.status).toBe(201)
  const app = enabled.body.data.application_id
  const move = (status: string) =>
    call("sandboxSetFeatureStatus", "POST", `/api/v1/sandbox/features/${app}/status`, { status })
  expect((await move("SUBMITTED")).body.data.status).toBe("SUBMITTED")
  await noAccount()
  expect((await move("ACTIVE")).body.data).toEqual({ ...enabled.body.data, status: "ACTIVE" })
  const listed = await call("listFeatures", "GET", `/api/v1/companies/${cid}/entities/${eid}/features`)
  expect(listed.body.data).toEqual([{ ...enabled.body.data, status: "ACTIVE" }])

  // Sandbox mid rate 0.92 EUR per USD, less the 50 bp margin: 0.9154. SWIFT: 25.00 USD + 0.10 %.
  const net = await quote(1000, "EUR")
  expectDocumentedShape(service.routes, "createQuote", net)
  expect(net.status).toBe(201)
  expect(net.body.data).toMatchObject({
    instructed_amount: "1000.00",
    instructed_amount_currency: "EUR",
    source_amount: "1118.51",
    source_amount_currency: "USD",
    target_amount: "1000.00",
    target_amount_currency: "EUR",
    currency_pair: "USDEUR",
    exchange_rate: 0.9154,
    fee: "26.09",
    fee_currency: "USD",
    fee_strategy: "net",
  })
  // Net: the fee comes on top of the converted principal.
  const principal = (cents(net.body.data.source_amount) - cents(net.body.data.fee)).toString()
  expectConverted(`${principal.slice(0, -2)}.${principal.slice(-2)}`, net.body.data.exchange_rate, "1000.00")

  const gross = await quote(1000, "USD", { fee_strategy: "gross" })
  expect(gross.status).toBe(201)
  expect(gross.body.data).toMatchObject({
    instructed_amount: "1000.00",
    instructed_amount_currency: "USD",
    source_amount: "1000.00",
    target_amount: "891.60",
    currency_pair: "USDEUR",
    exchange_rate: 0.9154,
    fee: "26.00",
    fee_strategy: "gross",
  })
  // Gross: the fee comes out of the instructed source amount before conversion.
  expectConverted("974.00", gross.body.data.exchange_rate, gross.body.data.target_amount)

  const paid = await call(
    "createPayment",
    "POST",
    `/api/v1/companies/${cid}/payments`,
    paymentBody(net.body.data.id, "fx-1"),
  )
  expect(paid.status).toBe(201)
  expect(paid.body.data).toMatchObject({
    instructed_amount: "1000.00",
    instructed_amount_currency: "EUR",
    status: "pending",
  })
  const advanced = await call("sandboxAdvanceClock", "POST", "/api/v1/sandbox/clock/advance", { seconds: 0 })
  expect(advanced.body.data.jobs_run).toBe(1)
  const done = await call("getPayment", "GET", `/api/v1/companies/${cid}/payments/${paid.body.data.id}`)
  expect(done.body.data.status).toBe("completed")
  expect(service.paymentProvider.submittedPayments()).toContainEqual(
    expect.objectContaining({
      paymentId: paid.body.data.id,
      sourceAmount: "1118.51",
      sourceCurrency: "USD",
      targetAmount: "1000.00",
      targetCurrency: "EUR",
    }),
  )
}
