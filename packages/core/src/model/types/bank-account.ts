import type { HostedPageClaims } from "./hosted-page-token.ts"
import type {
  AccountDetailId,
  BankAccountId,
  CompanyId,
  EntityId,
  PaymentProfileId,
  RecipientId,
  RoutingDetailId,
} from "./ids.ts"

// The types of `model/bank-account.ts`, written out (docs/decisions.md, "Public types").

/** Statuses of a payment profile; the storage port's records use the same list. */
export type ProfileStatus = "active" | "inactive" | "draft" | "failed"

/** What a payment profile is used for. */
export type UsageType = "credit" | "debit" | "balance" | "internal_account"

/** Who owns a bank account: an entity (funding accounts) or a recipient (`Counterparty`). */
export type OwnerType = "Entity" | "Counterparty"

/** How an account number is written. */
export type AccountNumberType = "other" | "iban"

/** A payment capability of a bank account. */
export interface PaymentProfile {
  readonly id: PaymentProfileId
  readonly status: ProfileStatus
  readonly payment_method: string
  readonly currency: string
  readonly usage_type: UsageType
  readonly created_at: string
  readonly updated_at: string
}

/** A payment profile as quotes and payments embed it, without timestamps. */
export interface PaymentProfileSummary {
  readonly id: PaymentProfileId
  readonly status: ProfileStatus
  readonly payment_method: string
  readonly currency: string
  readonly usage_type: UsageType
}

/** An account detail as stored and shown; only the last four characters of the number are kept. */
export interface AccountDetailRecord {
  readonly id: AccountDetailId
  /** Masked; the full number is never returned. */
  readonly account_number_mask: string
  readonly account_number_type: AccountNumberType
  readonly created_at: string
  readonly updated_at: string
}

/** A routing detail as stored and shown. */
export interface RoutingDetailRecord {
  readonly id: RoutingDetailId
  readonly routing_number: string
  readonly routing_number_type: string
  readonly bank_name: string | null
  readonly payment_method: string
  readonly created_at: string
  readonly updated_at: string
}

/** A party's address as stored and shown. */
export interface PartyAddressRecord {
  readonly country_code: string
  readonly street_address: string
  readonly city: string
  readonly state: string
  readonly postcode: string
}

/** A bank account with its details and payment profiles. Read-only once created. */
export interface BankAccount {
  readonly id: BankAccountId
  readonly currency: string
  readonly current_balance: string
  readonly last_synced_at: string | null
  readonly owner_type: OwnerType
  readonly owner_id: string
  readonly created_at: string
  readonly updated_at: string
  readonly account_details: ReadonlyArray<AccountDetailRecord>
  readonly routing_details: ReadonlyArray<RoutingDetailRecord>
  readonly party_address: PartyAddressRecord | null
  readonly payment_profiles: ReadonlyArray<PaymentProfile>
}

/**
 * The owner of a stored bank account: an entity's id with `Entity`, a recipient's with
 * `Counterparty`, so checking `owner_type` tells which id `owner_id` is. The wire keeps
 * `owner_id` as text.
 */
export type BankAccountOwner =
  | { readonly owner_type: "Entity"; readonly owner_id: EntityId }
  | { readonly owner_type: "Counterparty"; readonly owner_id: RecipientId }

/**
 * A bank account as storage keeps it: the wire shape without its profiles (stored on their own),
 * with its owner as a {@link BankAccountOwner}, its company and its provider links.
 */
export type BankAccountRecord = {
  readonly id: BankAccountId
  readonly currency: string
  readonly current_balance: string
  readonly last_synced_at: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly account_details: ReadonlyArray<AccountDetailRecord>
  readonly routing_details: ReadonlyArray<RoutingDetailRecord>
  readonly party_address: PartyAddressRecord | null
  readonly company_id: CompanyId
  /** Set for recipient accounts registered with the payment provider. */
  readonly provider_beneficiary_id: string | null
  /** Set for funding accounts linked through the bank-linking provider. */
  readonly provider_connection_id: string | null
} & BankAccountOwner

/** A payment profile as storage keeps it: the wire shape with its bank account and company. */
export interface PaymentProfileRecord {
  readonly id: PaymentProfileId
  readonly status: ProfileStatus
  readonly payment_method: string
  readonly currency: string
  readonly usage_type: UsageType
  readonly created_at: string
  readonly updated_at: string
  readonly bank_account_id: BankAccountId
  readonly company_id: CompanyId
}

/**
 * A payment profile with what a quote or a payment checks before using it: the owner and
 * provider links of its bank account, and whether that owner is live.
 */
export type ProfileInUse = BankAccountOwner &
  Pick<BankAccountRecord, "provider_connection_id" | "provider_beneficiary_id"> & {
    readonly profile: PaymentProfileRecord
    /** The account's owner, entity or recipient, exists in the profile's company and is not deleted. */
    readonly owner_live: boolean
    /** The owning entity's `payment_integration_active`; false for a recipient's account. */
    readonly integration_active: boolean
  }

/** Body of `POST /api/v1/companies/{cid}/recipients/{id}/bank_accounts`. */
export interface BankAccountCreate {
  readonly entity_id: EntityId
  readonly beneficiary_details: {
    readonly [key: string]: unknown
  }
}

/** Body of a recipient's bank account create, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface BankAccountCreateBody {
  readonly entity_id: string
  readonly beneficiary_details: {
    readonly [key: string]: unknown
  }
}

/** Body of a funding account's link, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface FundingAccountLinkBody {
  readonly institution_id?: string
}

/**
 * The debit mandate a person gave when linking a funding account on the hosted page: who signed
 * it, the e-mail it was given under, and when. Kept beside the account, as proof of the
 * authorisation to debit it; an account linked otherwise (the sandbox helper) has none.
 */
export interface FundingMandate {
  readonly email: string
  readonly signatory_name: string
  readonly accepted_at: string
}

/** A funding mandate as storage keeps it: one per funding account. */
export interface FundingMandateRecord {
  readonly email: string
  readonly signatory_name: string
  readonly accepted_at: string
  readonly bank_account_id: BankAccountId
  readonly company_id: CompanyId
}

/** Options of `createForRecipient`. */
export interface CreateForRecipientOptions {
  /**
   * The hosted-page token the account is added with: used up in the transaction that stores the
   * account, so the page's link works once (`unauthenticated` on `token`, nothing stored, after).
   */
  readonly usingToken?: HostedPageClaims
}

/** The hosted page's link form: the bank chosen and the mandate's e-mail and signatory. */
export interface FundingMandateForm {
  readonly institution_id: string
  readonly mandate_email: string
  readonly signatory_name: string
}

/** A funding account as the hosted page lists it: the bank account, and the mandate given when it was linked there. */
export type FundingAccount = BankAccount & { readonly mandate: FundingMandate | null }
