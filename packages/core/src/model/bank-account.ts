import { Schema, Struct } from "effect"
import { required, Text, Timestamp } from "./fields.ts"
import {
  AccountDetailId,
  BankAccountId,
  brandId,
  CompanyId,
  EntityId,
  idText,
  PaymentProfileId,
  RecipientId,
  RoutingDetailId,
} from "./ids.ts"
import type * as Types from "./types/bank-account.ts"
import type { BankAccountRecord, PaymentProfileRecord } from "./types/bank-account.ts"

export * from "./types/bank-account.ts"

/** Statuses of a payment profile; the storage port's records use the same list. */
export const ProfileStatus = Schema.Literal("active", "inactive", "draft", "failed")
export type ProfileStatus = Types.ProfileStatus

/** What a payment profile is used for. */
export const UsageType = Schema.Literal("credit", "debit", "balance", "internal_account")
export type UsageType = Types.UsageType

/** Who owns a bank account: an entity (funding accounts) or a recipient (`Counterparty`). */
export const OwnerType = Schema.Literal("Entity", "Counterparty")
export type OwnerType = Types.OwnerType

/** How an account number is written. */
export const AccountNumberType = Schema.Literal("other", "iban")
export type AccountNumberType = Types.AccountNumberType

const paymentProfileFields = {
  id: PaymentProfileId,
  status: ProfileStatus,
  payment_method: Schema.String,
  currency: Schema.String,
  usage_type: UsageType,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link PaymentProfile}, named so that declarations refer to it instead of copying it. */
export interface PaymentProfileSchema extends Schema.Struct<typeof paymentProfileFields> {}
/** A payment capability of a bank account. */
export const PaymentProfile: PaymentProfileSchema = Schema.Struct(paymentProfileFields).annotations({
  identifier: "PaymentProfile",
})
export type PaymentProfile = Types.PaymentProfile

/** A payment profile as quotes and payments embed it, without timestamps. */
export const PaymentProfileSummary = PaymentProfile.pipe(Schema.omit("created_at", "updated_at")).annotations({
  identifier: "PaymentProfileSummary",
})
export type PaymentProfileSummary = Types.PaymentProfileSummary

const accountDetailFields = {
  id: AccountDetailId,
  account_number_mask: Schema.String.annotations({ description: "masked; the full number is never returned" }),
  account_number_type: AccountNumberType,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link AccountDetail}, named so that declarations refer to it instead of copying it. */
export interface AccountDetailSchema extends Schema.Struct<typeof accountDetailFields> {}
export const AccountDetail: AccountDetailSchema = Schema.Struct(accountDetailFields).annotations({
  identifier: "AccountDetail",
})

const routingDetailFields = {
  id: RoutingDetailId,
  routing_number: Schema.String,
  routing_number_type: Schema.String,
  bank_name: Schema.NullOr(Schema.String),
  payment_method: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link RoutingDetail}, named so that declarations refer to it instead of copying it. */
export interface RoutingDetailSchema extends Schema.Struct<typeof routingDetailFields> {}
export const RoutingDetail: RoutingDetailSchema = Schema.Struct(routingDetailFields).annotations({
  identifier: "RoutingDetail",
})

const partyAddressFields = {
  country_code: Schema.String,
  street_address: Schema.String,
  city: Schema.String,
  state: Schema.String,
  postcode: Schema.String,
}

/** The Schema of {@link PartyAddress}, named so that declarations refer to it instead of copying it. */
export interface PartyAddressSchema extends Schema.Struct<typeof partyAddressFields> {}
export const PartyAddress: PartyAddressSchema = Schema.Struct(partyAddressFields).annotations({
  identifier: "PartyAddress",
})

const bankAccountFields = {
  id: BankAccountId,
  currency: Schema.String,
  current_balance: Schema.String,
  last_synced_at: Schema.NullOr(Timestamp),
  owner_type: OwnerType,
  owner_id: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
  account_details: Schema.Array(AccountDetail),
  routing_details: Schema.Array(RoutingDetail),
  party_address: Schema.NullOr(PartyAddress),
  payment_profiles: Schema.Array(PaymentProfile),
}

/** The Schema of {@link BankAccount}, named so that declarations refer to it instead of copying it. */
export interface BankAccountSchema extends Schema.Struct<typeof bankAccountFields> {}
/** A bank account with its details and payment profiles. Read-only once created. */
export const BankAccount: BankAccountSchema = Schema.Struct(bankAccountFields).annotations({
  identifier: "BankAccount",
})
export type BankAccount = Types.BankAccount

/**
 * The owner of a stored bank account: an entity's id with `Entity`, a recipient's with
 * `Counterparty`, so checking `owner_type` tells which id `owner_id` is. The wire keeps
 * `owner_id` as text.
 */
export const BankAccountOwner = Schema.Union(
  Schema.Struct({ owner_type: Schema.Literal("Entity"), owner_id: EntityId }),
  Schema.Struct({ owner_type: Schema.Literal("Counterparty"), owner_id: RecipientId }),
)
export type BankAccountOwner = Types.BankAccountOwner

/**
 * The owner of a stored bank account from its two columns, for storage adapters: the type is
 * checked (a row with another one is corrupt, and throws) and the id branded as the type says.
 * Checked by hand, not decoded with {@link BankAccountOwner}: a brand checks nothing at run time,
 * and the union's decoder cost 2 % of a quote + payment pair, which reads four owners.
 *
 * @example
 * bankAccountOwner("Entity", "ent_1") // { owner_type: "Entity", owner_id: "ent_1" }, an EntityId
 */
export const bankAccountOwner = (owner_type: string, owner_id: string): BankAccountOwner => {
  if (owner_type === "Entity") return { owner_type, owner_id: brandId("ent", owner_id) }
  if (owner_type === "Counterparty") return { owner_type, owner_id: brandId("rcp", owner_id) }
  throw new Error(
    `a stored bank account's owner_type is neither Entity nor Counterparty: ${JSON.stringify(owner_type)}`,
  )
}

/**
 * A bank account as storage keeps it: the wire shape without its profiles (stored on their own),
 * with its owner as a {@link BankAccountOwner}, its company and its provider links. The storage
 * port's `BankAccountRecord` is its type.
 */
export const StoredBankAccount = Schema.extend(
  Schema.Struct({
    ...Struct.omit(BankAccount.fields, "payment_profiles", "owner_type", "owner_id"),
    company_id: CompanyId,
    /** Set for recipient accounts registered with the payment provider. */
    provider_beneficiary_id: Schema.NullOr(Schema.String),
    /** Set for funding accounts linked through the bank-linking provider. */
    provider_connection_id: Schema.NullOr(Schema.String),
  }),
  BankAccountOwner,
)

/**
 * A payment profile as storage keeps it: the wire shape with its bank account and company. The
 * storage port's `PaymentProfileRecord` is its type.
 */
export const StoredPaymentProfile = Schema.Struct({
  ...PaymentProfile.fields,
  bank_account_id: BankAccountId,
  company_id: CompanyId,
})

/** Body of `POST /api/v1/companies/{cid}/recipients/{id}/bank_accounts`. */
export const BankAccountCreate = Schema.Struct({
  entity_id: required(idText(EntityId), "Entity ID is required"),
  beneficiary_details: required(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({ message: () => "must be an object" }),
    "Beneficiary details are required",
  ),
}).annotations({ identifier: "BankAccountCreate" })
export type BankAccountCreate = Types.BankAccountCreate

/** Body of the sandbox helper that links a funding account: optionally which test bank. */
export const FundingAccountLink = Schema.Struct({
  institution_id: Schema.optional(Text),
}).annotations({ identifier: "FundingAccountLink" })

/**
 * The debit mandate a person gave when linking a funding account on the hosted page: who signed
 * it, the e-mail it was given under, and when. Kept beside the account, as proof of the
 * authorisation to debit it; an account linked otherwise (the sandbox helper) has none.
 */
export const FundingMandate = Schema.Struct({
  email: Schema.String,
  signatory_name: Schema.String,
  accepted_at: Timestamp,
}).annotations({ identifier: "FundingMandate" })
export type FundingMandate = Types.FundingMandate

/** A stored funding mandate: one per funding account. */
export const StoredFundingMandate = Schema.Struct({
  ...FundingMandate.fields,
  bank_account_id: BankAccountId,
  company_id: CompanyId,
})

/** A stored payment profile as the API returns it. */
export const toPaymentProfile = (row: PaymentProfileRecord): PaymentProfile => ({
  id: row.id,
  status: row.status,
  payment_method: row.payment_method,
  currency: row.currency,
  usage_type: row.usage_type,
  created_at: row.created_at,
  updated_at: row.updated_at,
})

/** A stored bank account with its profiles (`profiles` may hold other accounts' too). */
export const toBankAccount = (row: BankAccountRecord, profiles: ReadonlyArray<PaymentProfileRecord>): BankAccount => ({
  id: row.id,
  currency: row.currency,
  current_balance: row.current_balance,
  last_synced_at: row.last_synced_at,
  owner_type: row.owner_type,
  owner_id: row.owner_id,
  created_at: row.created_at,
  updated_at: row.updated_at,
  account_details: row.account_details.map((d) => ({ ...d })),
  routing_details: row.routing_details.map((d) => ({ ...d })),
  party_address: row.party_address === null ? null : { ...row.party_address },
  payment_profiles: profiles.filter((p) => p.bank_account_id === row.id).map(toPaymentProfile),
})

/** A stored payment profile as quotes and payments embed it. */
export const toProfileSummary = (row: PaymentProfileRecord): PaymentProfileSummary => ({
  id: row.id,
  status: row.status,
  payment_method: row.payment_method,
  currency: row.currency,
  usage_type: row.usage_type,
})
