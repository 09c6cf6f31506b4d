import { sandboxExamples } from "@payments-engine/adapters"
import { expect } from "vitest"
import { isoTimestamp } from "./expectations.ts"
import { documentedClient, fillRequirements, paymentBody, quoteBody } from "./payment-fixtures.ts"
import type { TestService } from "./test-service.ts"

/**
 * The black-box flow a client follows to pay a recipient, on one sandbox test service: payment
 * methods, the requirements form, a recipient bank account filled from it, a sandbox funding
 * account, net and gross quotes, a payment, and the clock helper that runs it to completion.
 * Every success body is checked against the shape its route documents. Run on every storage.
 */
export const paymentFlow = async (service: TestService): Promise<void> => {
  const { call, companyWithEntity } = await documentedClient(service, "payer")
  const { cid, eid } = await companyWithEntity()
  const rid = (await call("createRecipient", "POST", `/api/v1/companies/${cid}/recipients`, { name: "Jane Supplier" }))
    .body.data.id

  const methods = await call(
    "listPaymentMethods",
    "GET",
    "/api/v1/payment_methods?country_code=us&currency_code=Usd&entity_type=company",
  )
  expect(methods.body).toEqual({
    data: [
      { transfer_method: "LOCAL", local_clearing_systems: ["ACH", "FEDWIRE"] },
      { transfer_method: "SWIFT", local_clearing_systems: [] },
    ],
  })

  const requirements = await call("getBankAccountRequirements", "POST", "/api/v1/bank_account_requirements", {
    country_code: "us",
    currency_code: "usd",
    entity_type: "company",
    transfer_method: "local",
    local_clearing_system: "ach",
  })
  expect(requirements.body.data.condition).toEqual({
    account_currency: "USD",
    bank_country_code: "US",
    entity_type: "COMPANY",
    local_clearing_system: "ACH",
    transfer_method: "LOCAL",
  })
  const details = fillRequirements(requirements.body.data, sandboxExamples.US_ACH)
  const created = await call(
    "createRecipientBankAccount",
    "POST",
    `/api/v1/companies/${cid}/recipients/${rid}/bank_accounts`,
    { entity_id: eid, beneficiary_details: details },
  )
  expect(created.status).toBe(201)
  const account = created.body.data
  expect(account).toMatchObject({
    currency: "USD",
    owner_type: "Counterparty",
    owner_id: rid,
    account_details: [{ account_number_mask: "****6789", account_number_type: "other" }],
    routing_details: [
      { routing_number: "021000021", routing_number_type: "aba", bank_name: null, payment_method: "ach" },
    ],
    payment_profiles: [{ usage_type: "credit", status: "active", payment_method: "ach", currency: "USD" }],
  })
  const fullNumber = sandboxExamples.US_ACH.bank_details.account_number
  expect(created.text).not.toContain(fullNumber)

  const funding = await call(
    "sandboxLinkFundingAccount",
    "POST",
    `/api/v1/sandbox/entities/${eid}/funding_accounts`,
    {},
  )
  expect(funding.status).toBe(201)
  expect(funding.body.data).toMatchObject({
    owner_type: "Entity",
    owner_id: eid,
    payment_profiles: [{ usage_type: "debit", status: "active", payment_method: "ach", currency: "USD" }],
  })

  const listed = await call("listBankAccounts", "GET", `/api/v1/companies/${cid}/bank_accounts`)
  expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([account.id, funding.body.data.id])
  expect(listed.body.meta).toEqual({ total_records: 2, total_pages: 1, current_page: 1, per_page: 25 })
  const fetched = await call("getBankAccount", "GET", `/api/v1/companies/${cid}/bank_accounts/${account.id}`)
  expect(fetched.body.data).toEqual(account)
  const recipient = await call("getRecipient", "GET", `/api/v1/companies/${cid}/recipients/${rid}`)
  expect(recipient.body.data.bank_accounts).toEqual([account])
  for (const text of [listed.text, fetched.text, recipient.text]) expect(text).not.toContain(fullNumber)

  const from = funding.body.data.payment_profiles[0].id
  const to = account.payment_profiles[0].id
  const net = await call("createQuote", "POST", `/api/v1/companies/${cid}/quotes`, quoteBody(from, to, 250.5))
  expect(net.status).toBe(201)
  expect(net.body.data).toMatchObject({
    instructed_amount: "250.50",
    instructed_amount_currency: "USD",
    source_amount: "250.75",
    source_amount_currency: "USD",
    target_amount: "250.50",
    target_amount_currency: "USD",
    fee: "0.25",
    fee_currency: "USD",
    fee_strategy: "net",
    exchange_rate: 1,
    currency_pair: null,
    expires_at: new Date(service.clock.now().getTime() + 15 * 60 * 1000).toISOString(),
    from_profile: { id: from, usage_type: "debit" },
    to_profile: { id: to, usage_type: "credit" },
  })
  const gross = await call(
    "createQuote",
    "POST",
    `/api/v1/companies/${cid}/quotes`,
    quoteBody(from, to, 250.5, "USD", { fee_strategy: "gross" }),
  )
  expect(gross.body.data).toMatchObject({ source_amount: "250.50", target_amount: "250.25", fee: "0.25" })

  const paid = await call(
    "createPayment",
    "POST",
    `/api/v1/companies/${cid}/payments`,
    paymentBody(net.body.data.id, "invoice-1001", { credit_note: "Invoice 1001" }),
  )
  expect(paid.status).toBe(201)
  expect(paid.body.data).toMatchObject({
    quote_id: net.body.data.id,
    instructed_amount: "250.50",
    instructed_amount_currency: "USD",
    reason: "goods_purchased",
    status: "pending",
    credit_note: "Invoice 1001",
    created_at: isoTimestamp,
  })
  expect(paid.body.data).not.toHaveProperty("idempotency_key")
  expect(paid.body.data).not.toHaveProperty("debit_note")
  const paymentId = paid.body.data.id

  const advanced = await call("sandboxAdvanceClock", "POST", "/api/v1/sandbox/clock/advance", { seconds: 0 })
  expect(advanced.body.data).toEqual({ now: service.clock.now().toISOString(), jobs_run: 1 })
  const done = await call("getPayment", "GET", `/api/v1/companies/${cid}/payments/${paymentId}`)
  expect(done.body.data).toMatchObject({ id: paymentId, status: "completed", idempotency_key: "invoice-1001" })
  const payments = await call("listPayments", "GET", `/api/v1/companies/${cid}/payments?status=completed`)
  expect(payments.body.data).toEqual([done.body.data])
  expect(payments.body.meta).toEqual({ total_records: 1, total_pages: 1, current_page: 1, per_page: 25 })
  expect(service.paymentProvider.submittedPayments()).toEqual([
    expect.objectContaining({ paymentId, sourceAmount: "250.75", targetAmount: "250.50", paymentMethod: "ach" }),
  ])

  const log = service.logs.join("\n")
  expect(log).not.toContain(fullNumber)
}
