import type {
  Actor,
  BankAccountId,
  BankAccountOwner,
  BankAccountRecord,
  CompanyId,
  Engine,
  JobRunReport,
  PaymentId,
  PaymentProfileId,
  PaymentProfileRecord,
  PaymentReason,
  PaymentRecord,
  QuoteId,
  Repositories,
  Storage,
} from "@payments-engine/core"
import { brandId } from "@payments-engine/core"
import type { Harness } from "./contract-harness.ts"
import type { RecordedSubmission } from "./test-providers.ts"
import { testBeneficiary } from "./test-providers.ts"

/** A company ready to pay: entity, recipient with a bank account, and a funding account. */
export const payingCompany = async (harness: Harness, options: { readonly fundingInstitution?: string } = {}) => {
  const { engine } = harness
  const actor = await harness.workspace()
  const company = await engine.companies.create(actor, { name: "Payer Inc", country: "US", default_currency: "USD" })
  const entity = await engine.entities.create(actor, company.id, { name: "Payer Inc", country_alpha2: "US" })
  const recipient = await engine.recipients.create(actor, company.id, { name: "Payee" })
  const account = await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
    entity_id: entity.id,
    beneficiary_details: testBeneficiary,
  })
  const funding = await engine.fundingAccounts.link(
    actor,
    entity.id,
    options.fundingInstitution === undefined ? {} : { institution_id: options.fundingInstitution },
  )
  return {
    actor,
    company,
    entity,
    recipient,
    account,
    funding,
    from: funding.payment_profiles[0]!.id,
    to: account.payment_profiles[0]!.id,
  }
}

export type PayingCompany = Awaited<ReturnType<typeof payingCompany>>

/** Quote options beyond the profiles and the amount. */
export interface QuoteOptions {
  readonly currency?: string
  readonly strategy?: "net" | "gross"
}

export const quoteFor = (
  engine: Engine,
  actor: Actor,
  companyId: CompanyId,
  from: string,
  to: string,
  amount: number,
  options: QuoteOptions = {},
) =>
  engine.quotes.create(actor, companyId, {
    quote: {
      from_profile_id: from,
      to_profile_id: to,
      instructed_amount: { amount, currency: options.currency ?? "USD" },
      ...(options.strategy === undefined ? {} : { fee_strategy: options.strategy }),
    },
  })

export const payQuote = (
  engine: Engine,
  actor: Actor,
  companyId: CompanyId,
  quoteId: string,
  key: string,
  extra: { readonly reason?: PaymentReason; readonly credit_note?: string } = {},
) =>
  engine.payments.create(actor, companyId, {
    payment_instruction: {
      payment_quote_id: quoteId,
      reason: extra.reason ?? "goods_purchased",
      idempotency_key: key,
      ...(extra.credit_note === undefined ? {} : { credit_note: extra.credit_note }),
    },
  })

/**
 * Runs every job due by the engine's clock, also the ones earlier tests left queued in a storage
 * they share. The runner bounds its own rounds, and fails loudly when jobs stay due.
 */
export const runAllDue = (engine: Engine): Promise<JobRunReport> => engine.jobs.runDue()

/** Quotes `amount` USD for the paying company and pays it with `key`. */
export const quoteAndPay = async (harness: Harness, paying: PayingCompany, amount: number, key: string) => {
  const { engine } = harness
  const quote = await quoteFor(engine, paying.actor, paying.company.id, paying.from, paying.to, amount)
  const { payment } = await payQuote(engine, paying.actor, paying.company.id, quote.id, key)
  return { quote, payment }
}

/**
 * An amount with exactly two decimals ("12.30") as integer cents: money is compared exactly,
 * never as a float. Anything else fails the test.
 */
export const cents = (amount: string): bigint => {
  const match = /^(\d+)\.(\d{2})$/.exec(amount)
  if (match === null) throw new Error(`expected an amount with two decimals, got ${JSON.stringify(amount)}`)
  return BigInt(match[1]!) * 100n + BigInt(match[2]!)
}

/** The provider calls for these payment ids (a shared storage may hold other tests' payments). */
export const submissionsOf = (submissions: ReadonlyArray<RecordedSubmission>, ids: Iterable<string>) => {
  const mine = new Set(ids)
  return submissions.filter((s) => mine.has(s.paymentId))
}

/** The calls the provider answered (decided), leaving out the ones it rejected as unavailable. */
export const answered = (submissions: ReadonlyArray<RecordedSubmission>) =>
  submissions.filter((s) => s.answer !== "unavailable")

/** A storage read of a payment, by id. */
export const storedPayment = (storage: Storage, id: PaymentId): Promise<PaymentRecord | undefined> =>
  storage.transaction((tx) => tx.payments.findById(id))

/**
 * A storage whose repositories `plant` rewrites in every transaction: to make one write fail
 * on purpose, and see that the transaction's other writes go with it.
 */
export const wrapStorage = (storage: Storage, plant: (tx: Repositories) => Repositories): Storage => ({
  capabilities: storage.capabilities,
  transaction: (work) => storage.transaction((tx) => work(plant(tx))),
  createJobRunner: (handlers, options) => storage.createJobRunner(handlers, options),
  close: () => storage.close(),
})

/**
 * The transaction's repositories with `name` replaced by `repository`, whatever shape the storage
 * gives them: a spread would copy only own properties, and a storage may keep its repositories
 * as getters of a class.
 *
 * @example
 * declare const failingEvents: Repositories["events"]
 * wrapStorage(storage, (tx) => withRepository(tx, "events", { ...failingEvents }))
 */
export const withRepository = <K extends keyof Repositories>(
  tx: Repositories,
  name: K,
  repository: Repositories[K],
): Repositories =>
  new Proxy(tx, { get: (target, property) => (property === name ? repository : Reflect.get(target, property)) })

/** A bank account row with every column set, for port-level round trips. */
export const bankAccountRow = (
  id: BankAccountId,
  companyId: CompanyId,
  owner: BankAccountOwner,
  at: string,
  extra: Partial<Omit<BankAccountRecord, keyof BankAccountOwner>> = {},
): BankAccountRecord => ({
  id,
  company_id: companyId,
  ...owner,
  currency: "USD",
  current_balance: "1234.50",
  last_synced_at: at,
  provider_beneficiary_id: owner.owner_type === "Counterparty" ? `ben_${id}` : null,
  provider_connection_id: owner.owner_type === "Entity" ? `conn_${id}` : null,
  account_details: [
    {
      id: brandId("ad", `${id}_ad`),
      account_number_mask: "****6789",
      account_number_type: "other",
      created_at: at,
      updated_at: at,
    },
  ],
  routing_details: [
    {
      id: brandId("rd", `${id}_rd1`),
      routing_number: "021000021",
      routing_number_type: "aba",
      bank_name: null,
      payment_method: "ach",
      created_at: at,
      updated_at: at,
    },
    {
      id: brandId("rd", `${id}_rd2`),
      routing_number: "CHASUS33",
      routing_number_type: "swift",
      bank_name: "Chase «NY» ✓",
      payment_method: "ach",
      created_at: at,
      updated_at: at,
    },
  ],
  party_address: {
    country_code: "US",
    street_address: '1 Main St, Apt "4"',
    city: "New York",
    state: "NY",
    postcode: "10001",
  },
  created_at: at,
  updated_at: at,
  ...extra,
})

/** A payment profile row on a bank account. */
export const profileRow = (
  id: PaymentProfileId,
  account: Pick<BankAccountRecord, "id" | "company_id" | "currency">,
  usage: PaymentProfileRecord["usage_type"],
  status: PaymentProfileRecord["status"],
  at: string,
): PaymentProfileRecord => ({
  id,
  bank_account_id: account.id,
  company_id: account.company_id,
  status,
  payment_method: "ach",
  currency: account.currency,
  usage_type: usage,
  created_at: at,
  updated_at: at,
})

/** A pending payment row for port-level writes, as the engine would make it. */
export const paymentRow = (
  id: PaymentId,
  companyId: CompanyId,
  quoteId: QuoteId,
  key: string,
  at: string,
): PaymentRecord => ({
  id,
  company_id: companyId,
  quote_id: quoteId,
  idempotency_key: key,
  reason: "goods_purchased",
  credit_note: null,
  debit_note: null,
  payment_batch_id: null,
  status: "pending",
  machine_version: 1,
  instructed_amount: "10.00",
  instructed_currency: "USD",
  from_profile_id: brandId("pp", "pp_from"),
  to_profile_id: brandId("pp", "pp_to"),
  provider_payment_id: null,
  failure_reason: null,
  created_at: at,
  updated_at: at,
})
