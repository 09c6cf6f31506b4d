import type { Actor, Engine } from "@payments-engine/core"
import { expect } from "vitest"
import { expectRefusal, type Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { testBeneficiary } from "./test-providers.ts"

/** A company ready to pay: entity, recipient with a bank account, and a funding account. */
export const payingCompany = async (harness: Harness) => {
  const { engine } = harness
  const actor = await harness.workspace()
  const company = await engine.companies.create(actor, { name: "Payer Inc", country: "US", default_currency: "USD" })
  const entity = await engine.entities.create(actor, company.id, { name: "Payer Inc", country_alpha2: "US" })
  const recipient = await engine.recipients.create(actor, company.id, { name: "Payee" })
  const account = await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
    entity_id: entity.id,
    beneficiary_details: testBeneficiary,
  })
  const funding = await engine.fundingAccounts.link(actor, entity.id, {})
  return {
    actor,
    company,
    entity,
    recipient,
    from: funding.payment_profiles[0]!.id,
    to: account.payment_profiles[0]!.id,
  }
}

export const quoteFor = (engine: Engine, actor: Actor, companyId: string, from: string, to: string, amount: number) =>
  engine.quotes.create(actor, companyId, {
    quote: { from_profile_id: from, to_profile_id: to, instructed_amount: { amount, currency: "USD" } },
  })

export const payQuote = (engine: Engine, actor: Actor, companyId: string, quoteId: string, key: string) =>
  engine.payments.create(actor, companyId, {
    payment_instruction: { payment_quote_id: quoteId, reason: "goods_purchased", idempotency_key: key },
  })

/** Bank accounts, quotes, payments, jobs and the outbox, through the engine on the adapter. */
export const paymentScenarios: ScenarioGroup = {
  title: "money movement",
  scenarios: [
    {
      id: "bank-accounts.create-and-read",
      title:
        "a recipient bank account is stored masked with its credit profile and listed on the recipient and the company",
      run: async (harness) => {
        const { engine } = harness
        const { actor, company, recipient } = await payingCompany(harness)
        const [account] = (await engine.recipients.get(actor, company.id, recipient.id)).bank_accounts
        expect(account).toMatchObject({
          owner_type: "Counterparty",
          owner_id: recipient.id,
          currency: "USD",
          account_details: [{ account_number_mask: "****6789", account_number_type: "other" }],
          routing_details: [{ routing_number: "021000021", routing_number_type: "aba", payment_method: "ach" }],
          payment_profiles: [{ status: "active", usage_type: "credit", payment_method: "ach", currency: "USD" }],
        })
        expect(JSON.stringify(account)).not.toContain("123456789")
        expect(await engine.bankAccounts.get(actor, company.id, account!.id)).toEqual(account)
        const listed = await engine.bankAccounts.list(actor, company.id)
        expect(listed.data.map((a) => a.owner_type)).toEqual(["Counterparty", "Entity"])
      },
    },
    {
      id: "payments.create-and-execute",
      title: "a payment runs through its job to completed, a .13 amount to failed, each submitted once",
      run: async (harness) => {
        const { engine, paymentProvider } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const good = await payQuote(
          engine,
          actor,
          company.id,
          (await quoteFor(engine, actor, company.id, from, to, 40)).id,
          "g",
        )
        const bad = await payQuote(
          engine,
          actor,
          company.id,
          (await quoteFor(engine, actor, company.id, from, to, 40.13)).id,
          "b",
        )
        expect(await engine.jobs.runDue()).toEqual({ ran: 2, failed: 0 })
        expect(await engine.jobs.runDue()).toEqual({ ran: 0, failed: 0 })
        expect((await engine.payments.get(actor, company.id, good.payment.id)).status).toBe("completed")
        expect((await engine.payments.get(actor, company.id, bad.payment.id)).status).toBe("failed")
        expect(paymentProvider.submissions.map((s) => s.paymentId)).toEqual([good.payment.id, bad.payment.id])
      },
    },
    {
      id: "payments.quote-single-use",
      title: "a quote pays once; a second use and an expired quote are refused",
      run: async (harness) => {
        const { engine, clock } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const quote = await quoteFor(engine, actor, company.id, from, to, 10)
        await payQuote(engine, actor, company.id, quote.id, "first")
        await expectRefusal(
          payQuote(engine, actor, company.id, quote.id, "second"),
          422,
          "payment_quote_id",
          "Quote has already been used",
        )
        const late = await quoteFor(engine, actor, company.id, from, to, 10)
        clock.advance(15 * 60 * 1000)
        await expectRefusal(
          payQuote(engine, actor, company.id, late.id, "late"),
          422,
          "payment_quote_id",
          "Quote has expired",
        )
      },
    },
    {
      id: "payments.cancel",
      title: "a pending payment can be cancelled and is then never submitted",
      run: async (harness) => {
        const { engine, paymentProvider } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const { payment } = await payQuote(
          engine,
          actor,
          company.id,
          (await quoteFor(engine, actor, company.id, from, to, 5)).id,
          "c",
        )
        expect((await engine.payments.cancel(actor, company.id, payment.id)).status).toBe("cancelled")
        await engine.jobs.runDue()
        expect(paymentProvider.submissions).toEqual([])
        await expectRefusal(
          engine.payments.cancel(actor, company.id, payment.id),
          422,
          "status",
          "Payment cannot be cancelled in status cancelled",
        )
      },
    },
    {
      id: "payments.compare-and-set",
      title: "a status compare-and-set changes the payment only from the status it names",
      run: async (harness) => {
        const { engine, storage } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const { payment } = await payQuote(
          engine,
          actor,
          company.id,
          (await quoteFor(engine, actor, company.id, from, to, 9)).id,
          "cas",
        )
        const at = harness.clock.now().toISOString()
        const wrong = await storage.transaction((tx) =>
          tx.payments.compareAndSetStatus(payment.id, "processing", "completed", { updated_at: at }),
        )
        expect(wrong).toBeUndefined()
        const right = await storage.transaction((tx) =>
          tx.payments.compareAndSetStatus(payment.id, "pending", "processing", {
            updated_at: at,
            provider_payment_id: "pp_1",
          }),
        )
        expect(right).toMatchObject({
          id: payment.id,
          status: "processing",
          provider_payment_id: "pp_1",
          failure_reason: null,
        })
        expect((await engine.payments.get(actor, company.id, payment.id)).status).toBe("processing")
      },
    },
    {
      id: "events.outbox",
      title: "events are written with the change they report",
      run: async (harness) => {
        const { engine, storage } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const { payment } = await payQuote(
          engine,
          actor,
          company.id,
          (await quoteFor(engine, actor, company.id, from, to, 7)).id,
          "e",
        )
        await engine.jobs.runDue()
        const events = await storage.transaction((tx) => tx.events.listByCompany(company.id, { offset: 0, limit: 50 }))
        expect(events.rows.map((e) => e.event)).toEqual([
          "BankAccountEvents::CreatedEvent",
          "PaymentProfileEvents::CreatedEvent",
          "BankAccountEvents::CreatedEvent",
          "PaymentProfileEvents::CreatedEvent",
          "PaymentEvents::CompletedEvent",
        ])
        expect(JSON.parse(events.rows[4]!.payload)).toMatchObject({
          resource_id: payment.id,
          data: { status: "completed" },
        })
      },
    },
    {
      id: "concurrency.payment-idempotency",
      title: "concurrent creates with one business key make one payment; the others get it back",
      run: async (harness) => {
        const { engine } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const quote = await quoteFor(engine, actor, company.id, from, to, 12)
        const results = await Promise.allSettled(
          Array.from({ length: 6 }, () => payQuote(engine, actor, company.id, quote.id, "same")),
        )
        const created = results.flatMap((r) =>
          r.status === "fulfilled" && r.value.created ? [r.value.payment.id] : [],
        )
        const replayed = results.flatMap((r) =>
          r.status === "fulfilled" && !r.value.created ? [r.value.payment.id] : [],
        )
        expect(created).toHaveLength(1)
        expect(replayed.every((id) => id === created[0])).toBe(true)
        expect(results.every((r) => r.status === "fulfilled")).toBe(true)
        expect((await engine.payments.list(actor, company.id)).meta.total_records).toBe(1)
      },
    },
    {
      id: "concurrency.job-claims",
      title: "racing job runners never submit one payment twice",
      run: async (harness) => {
        const { engine, paymentProvider } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        for (let i = 0; i < 5; i++) {
          await payQuote(
            engine,
            actor,
            company.id,
            (await quoteFor(engine, actor, company.id, from, to, 3 + i)).id,
            `k${i}`,
          )
        }
        const second = harness.secondEngine()
        await Promise.all([engine.jobs.runDue(2), second.jobs.runDue(2), engine.jobs.runDue(2), second.jobs.runDue(2)])
        await engine.jobs.runDue()
        const ids = paymentProvider.submissions.map((s) => s.paymentId)
        expect(ids).toHaveLength(5)
        expect(new Set(ids).size).toBe(5)
        const statuses = (await engine.payments.list(actor, company.id)).data.map((p) => p.status)
        expect(statuses).toEqual(["completed", "completed", "completed", "completed", "completed"])
      },
    },
  ],
}
