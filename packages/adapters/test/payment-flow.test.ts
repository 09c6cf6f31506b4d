import { testServerSecret } from "@payments-engine/contract-tests"
import {
  type Actor,
  type CompanyId,
  createEngine,
  type Engine,
  type EntityId,
  isDomainError,
  type PaymentProfileId,
  type PaymentReason,
} from "@payments-engine/core"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openSqliteStorage,
  randomIds,
  type SandboxPaymentProvider,
  sandboxExamples,
  scryptHasher,
  TestClock,
} from "../src/index.ts"
import { type KyselyStorage, kyselyStorageOf } from "../src/kysely.ts"

/** What a refused call answers: the kind of the refusal and its errors. */
const refusal = async (call: Promise<unknown>) => {
  try {
    await call
  } catch (error) {
    if (isDomainError(error)) return { kind: error.kind, errors: error.errors }
    throw error
  }
  throw new Error("expected a refusal")
}

let engine: Engine
let storage: KyselyStorage
let clock: TestClock
let provider: SandboxPaymentProvider
let actor: Actor
let companyId: CompanyId
let entityId: EntityId
let toProfile: PaymentProfileId
let fromProfile: PaymentProfileId

beforeEach(async () => {
  clock = new TestClock(new Date("2026-11-18T10:00:00.000Z")) // a Wednesday
  provider = createSandboxPaymentProvider()
  storage = kyselyStorageOf(await openSqliteStorage({ filename: ":memory:" }))
  engine = createEngine({
    storage,
    clock,
    ids: randomIds({ clock }),
    hasher: scryptHasher({ cost: 2 ** 10 }),
    serverSecret: testServerSecret,
    paymentProvider: provider,
    bankLinker: createSandboxBankLinker(),
  })
  actor = { workspaceId: (await engine.access.ensureWorkspace("money")).id, scope: "write" }
  companyId = (await engine.companies.create(actor, { name: "Acme", country: "US", default_currency: "USD" })).id
  entityId = (await engine.entities.create(actor, companyId, { name: "Acme", country_alpha2: "US" })).id
  const recipient = await engine.recipients.create(actor, companyId, { name: "Supplier" })
  const account = await engine.bankAccounts.createForRecipient(actor, companyId, recipient.id, {
    entity_id: entityId,
    beneficiary_details: sandboxExamples.US_ACH,
  })
  toProfile = account.payment_profiles[0]!.id
  fromProfile = (await engine.fundingAccounts.link(actor, entityId, {})).payment_profiles[0]!.id
})

afterEach(async () => {
  await engine.close()
})

const quote = (amount: number, extra: Record<string, unknown> = {}) =>
  engine.quotes.create(actor, companyId, {
    quote: {
      from_profile_id: fromProfile,
      to_profile_id: toProfile,
      instructed_amount: { amount, currency: "USD" },
      ...extra,
    },
  })

const pay = (quoteId: string, key: string, reason: PaymentReason = "goods_purchased") =>
  engine.payments.create(actor, companyId, {
    payment_instruction: { payment_quote_id: quoteId, reason, idempotency_key: key },
  })

describe("paying a recipient through the engine", () => {
  it("stores a masked bank account with an active credit profile and shows it on the recipient", async () => {
    const [recipient] = (await engine.recipients.list(actor, companyId)).data
    const account = recipient!.bank_accounts[0]!
    expect(account.account_details[0]!.account_number_mask).toBe("****6789")
    expect(JSON.stringify(recipient)).not.toContain("123456789")
    expect(account.routing_details[0]).toMatchObject({
      routing_number: "021000021",
      routing_number_type: "aba",
      payment_method: "ach",
    })
    expect(account.payment_profiles[0]).toMatchObject({
      status: "active",
      usage_type: "credit",
      payment_method: "ach",
      currency: "USD",
    })
    expect((await engine.bankAccounts.list(actor, companyId)).meta.total_records).toBe(2)
  })

  it("refuses bad beneficiary details with every failing field at once", async () => {
    const recipient = await engine.recipients.create(actor, companyId, { name: "Other" })
    const details = {
      ...sandboxExamples.US_ACH,
      bank_details: {
        ...sandboxExamples.US_ACH.bank_details,
        account_routing_value1: "021000022",
        account_number: "12",
      },
    }
    expect(
      await refusal(
        engine.bankAccounts.createForRecipient(actor, companyId, recipient.id, {
          entity_id: entityId,
          beneficiary_details: details,
        }),
      ),
    ).toEqual({
      kind: "invalid",
      errors: [
        { field: "beneficiary_details.bank_details.account_number", message: "is too short (minimum is 4 characters)" },
        {
          field: "beneficiary_details.bank_details.account_routing_value1",
          message: "is not a valid ABA routing number",
        },
      ],
    })
  })

  it("prices net and gross quotes with the ACH fee, valid for 15 minutes", async () => {
    const net = await quote(100)
    expect(net).toMatchObject({
      instructed_amount: "100.00",
      source_amount: "100.25",
      target_amount: "100.00",
      fee: "0.25",
      fee_currency: "USD",
      fee_strategy: "net",
      exchange_rate: 1,
      currency_pair: null,
      expires_at: "2026-11-18T10:15:00.000Z",
      expected_completion_date: "2026-11-19",
    })
    expect(await quote(100, { fee_strategy: "gross" })).toMatchObject({
      source_amount: "100.00",
      target_amount: "99.75",
      fee: "0.25",
    })
    expect(await refusal(quote(10.001))).toEqual({
      kind: "invalid",
      errors: [{ field: "instructed_amount", message: "Amount has too many decimal places for USD" }],
    })
  })

  it("pays, and the payment completes once its job runs; a .13 amount fails", async () => {
    const good = await pay((await quote(100)).id, "p-1")
    const bad = await pay((await quote(10.13)).id, "p-2")
    expect(good).toMatchObject({ created: true, payment: { status: "pending", instructed_amount: "100.00" } })
    expect(good.payment).not.toHaveProperty("idempotency_key")
    expect(await engine.jobs.runDue()).toEqual({ ran: 2, failed: 0 })
    expect((await engine.payments.get(actor, companyId, good.payment.id)).status).toBe("completed")
    expect((await engine.payments.get(actor, companyId, bad.payment.id)).status).toBe("failed")
    expect(provider.submittedPayments().map((p) => p.paymentId)).toEqual([good.payment.id, bad.payment.id])
    expect((await engine.payments.list(actor, companyId, { status: "failed" })).data.map((p) => p.id)).toEqual([
      bad.payment.id,
    ])
  })

  it("uses a quote once, refuses it once expired, and replays a payment's business key", async () => {
    const first = await quote(50)
    const paid = await pay(first.id, "key-1")
    expect(await pay(first.id, "key-1")).toEqual({ created: false, payment: paid.payment })
    expect(await refusal(pay(first.id, "key-2"))).toEqual({
      kind: "invalid",
      errors: [{ field: "payment_quote_id", message: "Quote has already been used" }],
    })
    expect(await refusal(pay(first.id, "key-1", "taxes"))).toEqual({
      kind: "invalid",
      errors: [{ field: "idempotency_key", message: "has already been taken" }],
    })
    const late = await quote(50)
    clock.advance(15 * 60 * 1000)
    expect(await refusal(pay(late.id, "key-3"))).toEqual({
      kind: "invalid",
      errors: [{ field: "payment_quote_id", message: "Quote has expired" }],
    })
  })

  it("cancels a pending payment, and only a pending one", async () => {
    const { payment } = await pay((await quote(20)).id, "c-1")
    expect((await engine.payments.cancel(actor, companyId, payment.id)).status).toBe("cancelled")
    expect(await engine.jobs.runDue()).toEqual({ ran: 1, failed: 0 })
    expect(provider.submittedPayments()).toEqual([])
    expect(await refusal(engine.payments.cancel(actor, companyId, payment.id))).toEqual({
      kind: "invalid",
      errors: [{ field: "status", message: "Payment cannot be cancelled in status cancelled" }],
    })
  })

  it("refuses cross-currency quotes until the entity's integration is active", async () => {
    const recipient = await engine.recipients.create(actor, companyId, { name: "Euro supplier" })
    const euro = await engine.bankAccounts.createForRecipient(actor, companyId, recipient.id, {
      entity_id: entityId,
      beneficiary_details: sandboxExamples.DE_SEPA,
    })
    const body = {
      quote: {
        from_profile_id: fromProfile,
        to_profile_id: euro.payment_profiles[0]!.id,
        instructed_amount: { amount: 1000, currency: "EUR" },
      },
    }
    expect(await refusal(engine.quotes.create(actor, companyId, body))).toEqual({
      kind: "invalid",
      errors: [{ field: "base", message: "no active payment-provider account found for the entity" }],
    })
  })

  it("prices cross-currency quotes at the provider's rate less the margin once the integration is active", async () => {
    const recipient = await engine.recipients.create(actor, companyId, { name: "Euro supplier" })
    const euro = await engine.bankAccounts.createForRecipient(actor, companyId, recipient.id, {
      entity_id: entityId,
      beneficiary_details: sandboxExamples.DE_SEPA,
    })
    const { feature } = await engine.features.enable(actor, companyId, entityId, {
      feature_identifier: "multi_currency_account",
    })
    await engine.features.setStatus(actor, feature.application_id, "SUBMITTED")
    await engine.features.setStatus(actor, feature.application_id, "ACTIVE")
    const body = (amount: number, currency: string, fee_strategy: "net" | "gross") => ({
      quote: {
        from_profile_id: fromProfile,
        to_profile_id: euro.payment_profiles[0]!.id,
        instructed_amount: { amount, currency },
        fee_strategy,
      },
    })
    // mid 0.92 less 0.50 %: 0.9154; SEPA has no percentage and its fixed fee is in EUR only, so a USD source pays none
    const net = await engine.quotes.create(actor, companyId, body(1000, "EUR", "net"))
    expect(net).toMatchObject({
      exchange_rate: 0.9154,
      currency_pair: "USDEUR",
      target_amount: "1000.00",
      source_amount: "1092.42",
      fee: "0.00",
      fee_currency: "USD",
      expected_completion_date: "2026-11-19",
    })
    const gross = await engine.quotes.create(actor, companyId, body(1000, "USD", "gross"))
    expect(gross).toMatchObject({ source_amount: "1000.00", fee: "0.00", target_amount: "915.40" })
    expect(await refusal(engine.quotes.create(actor, companyId, body(1000, "EUR", "gross")))).toEqual({
      kind: "invalid",
      errors: [{ field: "fee_strategy", message: "Gross quotes must be instructed in the source currency" }],
    })
  })

  it("writes the events of its changes to the outbox", async () => {
    const { payment } = await pay((await quote(30)).id, "e-1")
    await engine.jobs.runDue()
    // Read straight from the table: the outbox has no read in the storage port.
    const events = await storage.db
      .selectFrom("events")
      .selectAll()
      .where("company_id", "=", companyId)
      .orderBy("id")
      .execute()
    expect(events.map((e) => e.event)).toEqual([
      "entity.created",
      "BankAccountEvents::CreatedEvent",
      "PaymentProfileEvents::CreatedEvent",
      "BankAccountEvents::CreatedEvent",
      "PaymentProfileEvents::CreatedEvent",
      "PaymentEvents::DebitInitiatedEvent",
      "PaymentEvents::CompletedEvent",
    ])
    const completed = JSON.parse(events[6]!.payload)
    expect(completed).toMatchObject({
      event: "PaymentEvents::CompletedEvent",
      company_id: companyId,
      resource_id: payment.id,
    })
    expect(completed.data).toMatchObject({ id: payment.id, status: "completed" })
    expect(typeof JSON.parse(events[0]!.payload).timestamp).toBe("string")
    expect(typeof JSON.parse(events[1]!.payload).timestamp).toBe("number")
  })
})
