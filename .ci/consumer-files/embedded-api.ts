// An embedder's program, about 60 lines: the engine on SQLite with the sandbox providers, paying a
// recipient through the engine alone. docs/benchmarks.md measures what its strict tsc costs.
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
import {
  type Actor,
  CompanyId,
  createEngine,
  type Engine,
  isDomainError,
  type PaymentInstruction,
} from "@payments-engine/core"

export const openEngine = async (filename: string): Promise<Engine> => {
  const secret = randomBytes(32).toString("base64url")
  return createEngine({
    storage: await openSqliteStorage({ filename }),
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher(),
    serverSecret: { read: async () => secret },
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
  })
}

export const pay = async (engine: Engine, amount: number): Promise<PaymentInstruction> => {
  const workspace = await engine.access.ensureWorkspace("consumer")
  const actor: Actor = { workspaceId: workspace.id, scope: "write" }
  const company = await engine.companies.create(actor, { name: "Acme Inc", country: "US", default_currency: "USD" })
  const entity = await engine.entities.create(actor, company.id, { name: "Acme Inc", country_alpha2: "US" })
  const recipient = await engine.recipients.create(actor, company.id, { name: "Jane Supplier" })
  const account = await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
    entity_id: entity.id,
    beneficiary_details: sandboxExamples.US_ACH,
  })
  const funding = await engine.fundingAccounts.link(actor, entity.id, {})
  const from = funding.payment_profiles[0]
  const to = account.payment_profiles[0]
  if (from === undefined || to === undefined) throw new Error("no payment profile")
  const quote = await engine.quotes.create(actor, company.id, {
    quote: { from_profile_id: from.id, to_profile_id: to.id, instructed_amount: { amount, currency: "USD" } },
  })
  const { payment } = await engine.payments.create(actor, company.id, {
    payment_instruction: { payment_quote_id: quote.id, reason: "goods_purchased", idempotency_key: "pay-1" },
  })
  await engine.jobs.runDue()
  return engine.payments.get(actor, company.id, payment.id)
}

export const refusal = async (engine: Engine, actor: Actor): Promise<string[]> => {
  try {
    await engine.recipients.create(actor, CompanyId.make("cmp_missing"), { name: "" })
    return []
  } catch (error) {
    if (isDomainError(error)) return error.errors.map((e) => `${e.field}: ${e.message}`)
    throw error
  }
}
