import type {
  Actor,
  CompanyId,
  Engine,
  PaymentCreateBody,
  PaymentProfileId,
  QuoteCreateBody,
} from "@payments-engine/core"
import { sandboxExamples } from "../sandbox/index.ts"

/** A workspace that can pay: one company, a funding profile to pay from and a recipient's profile to pay to. */
export interface Payer {
  readonly actor: Actor
  readonly companyId: CompanyId
  readonly fromProfileId: PaymentProfileId
  readonly toProfileId: PaymentProfileId
}

/**
 * Sets up a {@link Payer} in workspace `workspace` through the engine's Promise API, on the
 * sandbox providers: company, entity, recipient with a US ACH account, and a funding account.
 * For benchmarks and tests that need payments, not their set-up.
 *
 * @example
 * const payer = await setUpPayer(engine, "bench")
 * await payInProcess(engine, payer, 0)
 */
export const setUpPayer = async (engine: Engine, workspace: string): Promise<Payer> => {
  const { id: workspaceId } = await engine.access.ensureWorkspace(workspace)
  const actor: Actor = { workspaceId, scope: "write" }
  const company = await engine.companies.create(actor, { name: "Payer Inc", country: "US", default_currency: "USD" })
  const entity = await engine.entities.create(actor, company.id, { name: "Payer Inc", country_alpha2: "US" })
  const recipient = await engine.recipients.create(actor, company.id, { name: "Supplier" })
  const account = await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
    entity_id: entity.id,
    beneficiary_details: sandboxExamples.US_ACH,
  })
  const funding = await engine.fundingAccounts.link(actor, entity.id, {})
  return {
    actor,
    companyId: company.id,
    fromProfileId: funding.payment_profiles[0]!.id,
    toProfileId: account.payment_profiles[0]!.id,
  }
}

/**
 * The body of quote number `i`: amounts vary a little so that no two requests are byte-identical.
 *
 * @example
 * declare const payer: Payer
 * await engine.quotes.create(payer.actor, payer.companyId, quoteRequest(payer, 7))
 */
export const quoteRequest = (payer: Payer, i: number): QuoteCreateBody => ({
  quote: {
    from_profile_id: payer.fromProfileId,
    to_profile_id: payer.toProfileId,
    instructed_amount: { amount: 100 + (i % 50), currency: "USD" },
  },
})

/**
 * The body of payment number `i` from quote `quoteId`; `i` makes its idempotency key, so it must
 * be unique within the company.
 *
 * @example
 * declare const payer: Payer, quote: Quote
 * await engine.payments.create(payer.actor, payer.companyId, paymentRequest(quote.id, 7))
 */
export const paymentRequest = (quoteId: string, i: number, prefix = "bench"): PaymentCreateBody => ({
  payment_instruction: { payment_quote_id: quoteId, reason: "goods_purchased", idempotency_key: `${prefix}-${i}` },
})

/**
 * Creates quote + payment number `i` through the engine's Promise API, as a client's two API calls would.
 *
 * @example
 * declare const payer: Payer
 * for (let i = 0; i < 100; i++) await payInProcess(engine, payer, i)
 */
export const payInProcess = async (engine: Engine, payer: Payer, i: number, prefix = "bench"): Promise<void> => {
  const quote = await engine.quotes.create(payer.actor, payer.companyId, quoteRequest(payer, i))
  await engine.payments.create(payer.actor, payer.companyId, paymentRequest(quote.id, i, prefix))
}
