import { randomBytes } from "node:crypto"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openSqliteStorage,
  randomIds,
  sandboxExamples,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { type Actor, createEngine } from "@payments-engine/core"

/**
 * Pays a recipient through the engine alone, no HTTP: the recipient's bank account, a funding
 * account for the company's entity, a quote between the two, the payment, and the background job
 * that executes it, run with `engine.jobs.runDue()`. Sandbox providers, in-memory SQLite.
 */
export const payRecipient = async (log: (...values: unknown[]) => void = console.log) => {
  const serverSecret = randomBytes(32).toString("base64url")
  const engine = createEngine({
    storage: await openSqliteStorage({ filename: ":memory:" }),
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher(),
    serverSecret: { read: async () => serverSecret },
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
  })
  try {
    const workspace = await engine.access.ensureWorkspace("acme-payments")
    const actor: Actor = { workspaceId: workspace.id, scope: "write" }
    const company = await engine.companies.create(actor, { name: "Acme Inc", country: "US", default_currency: "USD" })
    const entity = await engine.entities.create(actor, company.id, { name: "Acme Inc", country_alpha2: "US" })

    // Where the money goes: the recipient's bank account, checked against the provider's requirements.
    const recipient = await engine.recipients.create(actor, company.id, { name: "Jane Supplier" })
    const bankAccount = await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
      entity_id: entity.id,
      beneficiary_details: sandboxExamples.US_ACH,
    })
    // Where it comes from: an account at a (sandbox) bank linked for the entity.
    const funding = await engine.fundingAccounts.link(actor, entity.id, {})
    const [from] = funding.payment_profiles
    const [to] = bankAccount.payment_profiles
    if (from === undefined || to === undefined) throw new Error("an account without a payment profile")

    const quote = await engine.quotes.create(actor, company.id, {
      quote: { from_profile_id: from.id, to_profile_id: to.id, instructed_amount: { amount: 125.5, currency: "USD" } },
    })
    log("quote", quote.id, quote.instructed_amount, quote.instructed_amount_currency, "fee", quote.fee)
    // The idempotency key is the payment's business key: the same key again returns this payment.
    const { payment } = await engine.payments.create(actor, company.id, {
      payment_instruction: { payment_quote_id: quote.id, reason: "goods_purchased", idempotency_key: "invoice-1001" },
    })
    log("payment", payment.id, payment.status)

    // The payment is executed by a background job: run what is due now (or call engine.jobs.start() once).
    const report = await engine.jobs.runDue()
    const paid = await engine.payments.get(actor, company.id, payment.id)
    log("payment", paid.id, paid.status)
    return { quote, created: payment, paid, report }
  } finally {
    await engine.close()
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  await payRecipient()
}
