import type { AccountNumberType, OwnerType, ProfileStatus, UsageType } from "../../model/bank-account.ts"
import type { Slice, Window } from "./index.ts"

/**
 * Repositories of money movement: bank accounts and their payment profiles, quotes, payments,
 * the job queue and the event outbox. Part of {@link Repositories}; same conventions (ISO
 * timestamps as text, lists in id order, outcomes of conditional writes read from the write).
 */

export type { OwnerType, ProfileStatus, UsageType }

export interface AccountDetailRecord {
  readonly id: string
  /** Only the last four characters are kept; the full number never reaches storage. */
  readonly account_number_mask: string
  readonly account_number_type: AccountNumberType
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
   * The company's profiles among `ids`, in id order, in one read (a list of payments shows the
   * profiles of all of them). Ids of other companies, or of no profile, are left out.
   */
  findMany(companyId: string, ids: ReadonlyArray<string>): Promise<ReadonlyArray<PaymentProfileRecord>>
  /**
   * The company's profiles among `ids`, each with its account's owner and links, in one read
   * (quotes and payments call it on their hot path). Ids of other companies, or of no profile,
   * are left out; the order is free.
   */
  findInUse(companyId: string, ids: ReadonlyArray<string>): Promise<ReadonlyArray<ProfileInUse>>
  /** Profiles of these bank accounts, in id order. */
  listByBankAccounts(bankAccountIds: ReadonlyArray<string>): Promise<ReadonlyArray<PaymentProfileRecord>>
}
