import type { Slice, Window } from "./storage.ts"

/**
 * Repositories of money movement: bank accounts and their payment profiles, quotes, payments,
 * the job queue and the event outbox. Part of {@link Repositories}; same conventions (ISO
 * timestamps as text, lists in id order, outcomes of conditional writes read from the write).
 */

export type OwnerType = "Entity" | "Counterparty"

export interface AccountDetailRecord {
  readonly id: string
  /** Only the last four characters are kept; the full number never reaches storage. */
  readonly account_number_mask: string
  readonly account_number_type: "other" | "iban"
  readonly created_at: string
  readonly updated_at: string
}

export interface RoutingDetailRecord {
  readonly id: string
  readonly routing_number: string
  readonly routing_number_type: string
  readonly bank_name: string | null
  readonly payment_method: string
  readonly created_at: string
  readonly updated_at: string
}

export interface PartyAddressRecord {
  readonly country_code: string
  readonly street_address: string
  readonly city: string
  readonly state: string
  readonly postcode: string
}

export interface BankAccountRecord {
  readonly id: string
  readonly company_id: string
  readonly owner_type: OwnerType
  readonly owner_id: string
  readonly currency: string
  /** Decimal string. */
  readonly current_balance: string
  readonly last_synced_at: string | null
  /** Set for recipient accounts registered with the payment provider. */
  readonly provider_beneficiary_id: string | null
  /** Set for funding accounts linked through the bank-linking provider. */
  readonly provider_connection_id: string | null
  readonly account_details: ReadonlyArray<AccountDetailRecord>
  readonly routing_details: ReadonlyArray<RoutingDetailRecord>
  readonly party_address: PartyAddressRecord | null
  readonly created_at: string
  readonly updated_at: string
}

export interface BankAccountRepository {
  insert(row: BankAccountRecord): Promise<void>
  find(companyId: string, id: string): Promise<BankAccountRecord | undefined>
  /** Accounts of the company, recipients' and entities' alike. */
  listByCompany(companyId: string, window: Window): Promise<Slice<BankAccountRecord>>
  /** Accounts of these owners, in id order (to embed in recipients). */
  listByOwners(ownerType: OwnerType, ownerIds: ReadonlyArray<string>): Promise<ReadonlyArray<BankAccountRecord>>
}

export type ProfileStatus = "active" | "inactive" | "draft" | "failed"
export type UsageType = "credit" | "debit" | "balance" | "internal_account"

export interface PaymentProfileRecord {
  readonly id: string
  readonly bank_account_id: string
  readonly company_id: string
  readonly status: ProfileStatus
  readonly payment_method: string
  readonly currency: string
  readonly usage_type: UsageType
  readonly created_at: string
  readonly updated_at: string
}

/**
 * A payment profile with what a quote or a payment checks before using it: the owner and
 * provider links of its bank account, and whether that owner is live.
 */
export interface ProfileInUse {
  readonly profile: PaymentProfileRecord
  readonly owner_type: OwnerType
  readonly owner_id: string
  readonly provider_connection_id: string | null
  readonly provider_beneficiary_id: string | null
  /** The account's owner, entity or recipient, exists in the profile's company and is not deleted. */
  readonly owner_live: boolean
  /** The owning entity's `payment_integration_active`; false for a recipient's account. */
  readonly integration_active: boolean
}

export interface PaymentProfileRepository {
  insert(row: PaymentProfileRecord): Promise<void>
  find(companyId: string, id: string): Promise<PaymentProfileRecord | undefined>
  /**
   * The company's profiles among `ids`, each with its account's owner and links, in one read
   * (quotes and payments call it on their hot path). Ids of other companies, or of no profile,
   * are left out; the order is free.
   */
  findInUse(companyId: string, ids: ReadonlyArray<string>): Promise<ReadonlyArray<ProfileInUse>>
  /** Profiles of these bank accounts, in id order. */
  listByBankAccounts(bankAccountIds: ReadonlyArray<string>): Promise<ReadonlyArray<PaymentProfileRecord>>
}

export interface QuoteRecord {
  readonly id: string
  readonly company_id: string
  readonly from_profile_id: string
  readonly to_profile_id: string
  readonly fee_strategy: "net" | "gross"
  readonly payment_method: string
  /** Amounts are decimal strings in their currency's minor units. */
  readonly instructed_amount: string
  readonly instructed_currency: string
  readonly source_amount: string
  readonly source_currency: string
  readonly target_amount: string
  readonly target_currency: string
  readonly fee: string
  readonly fee_currency: string
  /** Decimal string, 1 source unit = rate target units. */
  readonly exchange_rate: string
  readonly currency_pair: string | null
  /** YYYY-MM-DD. */
  readonly expected_completion_date: string
  readonly expires_at: string
  readonly created_at: string
}

export interface QuoteRepository {
  insert(row: QuoteRecord): Promise<void>
  find(companyId: string, id: string): Promise<QuoteRecord | undefined>
}

export type PaymentStatusValue = "pending" | "processing" | "completed" | "failed" | "cancelled"

export interface PaymentRecord {
  readonly id: string
  readonly company_id: string
  readonly quote_id: string
  readonly idempotency_key: string
  readonly reason: string
  readonly credit_note: string | null
  readonly debit_note: string | null
  readonly payment_batch_id: string | null
  readonly status: PaymentStatusValue
  readonly machine_version: number
  readonly instructed_amount: string
  readonly instructed_currency: string
  readonly from_profile_id: string
  readonly to_profile_id: string
  readonly provider_payment_id: string | null
  readonly failure_reason: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** Changes a status compare-and-set may write along with the status. */
export interface PaymentStatusChange {
  readonly provider_payment_id?: string | null
  readonly failure_reason?: string | null
  readonly updated_at: string
}

export interface PaymentFilter {
  readonly status?: PaymentStatusValue
  readonly payment_batch_id?: string
}

export interface PaymentRepository {
  /**
   * Inserts unless a payment already uses the quote, or the company already has a payment with
   * the idempotency key; says which. Must hold under concurrency.
   */
  insertIfNew(row: PaymentRecord): Promise<"inserted" | "conflict">
  find(companyId: string, id: string): Promise<PaymentRecord | undefined>
  /** For background jobs, which hold only the id. */
  findById(id: string): Promise<PaymentRecord | undefined>
  findByIdempotencyKey(companyId: string, key: string): Promise<PaymentRecord | undefined>
  findByQuote(quoteId: string): Promise<PaymentRecord | undefined>
  list(companyId: string, filter: PaymentFilter, window: Window): Promise<Slice<PaymentRecord>>
  /**
   * Moves the payment from `from` to `to` only if it is still in `from`; the updated row, or
   * undefined when another writer got there first.
   */
  compareAndSetStatus(
    id: string,
    from: PaymentStatusValue,
    to: PaymentStatusValue,
    change: PaymentStatusChange,
  ): Promise<PaymentRecord | undefined>
}

export interface JobRecord {
  readonly id: string
  /** What to do, e.g. "execute_payment". */
  readonly kind: string
  /** JSON text. */
  readonly payload: string
  readonly run_at: string
  readonly attempts: number
  readonly state: "queued" | "done" | "failed"
  readonly locked_until: string | null
  readonly last_error: string | null
  readonly created_at: string
  readonly updated_at: string
}

export interface JobRepository {
  enqueue(row: JobRecord): Promise<void>
  /**
   * Claims up to `limit` queued jobs due at `now` whose lock is free, locking them until
   * `lockedUntil` and counting an attempt; each job is claimed by one caller only, also across
   * processes. Oldest `run_at` first.
   */
  claimDue(now: string, lockedUntil: string, limit: number): Promise<ReadonlyArray<JobRecord>>
  /** Marks a claimed job done. */
  finish(id: string, now: string): Promise<void>
  /** Puts a claimed job back in the queue to run at `runAt`. */
  retryAt(id: string, runAt: string, error: string, now: string): Promise<void>
  /** Gives a claimed job up for good. */
  fail(id: string, error: string, now: string): Promise<void>
  /** The earliest `run_at` of queued jobs, to know when to wake up. */
  nextRunAt(): Promise<string | undefined>
}

export interface EventRecord {
  readonly id: string
  readonly workspace_id: string
  readonly company_id: string
  /** The event name, e.g. "PaymentEvents::CompletedEvent". */
  readonly event: string
  readonly resource_id: string
  /** The webhook body, JSON text. */
  readonly payload: string
  readonly created_at: string
}

export interface EventRepository {
  /** Written in the same transaction as the change it reports (transactional outbox). */
  append(row: EventRecord): Promise<void>
  /** Events of a company in id order. */
  listByCompany(companyId: string, window: Window): Promise<Slice<EventRecord>>
}

export interface MoneyRepositories {
  readonly bankAccounts: BankAccountRepository
  readonly paymentProfiles: PaymentProfileRepository
  readonly quotes: QuoteRepository
  readonly payments: PaymentRepository
  readonly jobs: JobRepository
  readonly events: EventRepository
}
