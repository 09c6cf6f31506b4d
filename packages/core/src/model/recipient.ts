import { Schema, Struct } from "effect"
import { BankAccount } from "./bank-account.ts"
import { NonBlank, required, Text, Timestamp } from "./fields.ts"
import { CompanyId, RecipientId } from "./ids.ts"
import type * as Types from "./types/recipient.ts"
import type { RecipientRecord } from "./types/recipient.ts"

export * from "./types/recipient.ts"

const recipientFields = {
  id: RecipientId,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp,
  bank_accounts: Schema.Array(BankAccount).annotations({ description: "empty for a new recipient" }),
}

/** The Schema of {@link Recipient}, named so that declarations refer to it instead of copying it. */
export interface RecipientSchema extends Schema.Struct<typeof recipientFields> {}
/** A recipient (payee) as the API returns it, with its bank accounts. */
export const Recipient: RecipientSchema = Schema.Struct(recipientFields).annotations({ identifier: "Recipient" })
export type Recipient = Types.Recipient

const storedRecipientFields = {
  ...Struct.omit(Recipient.fields, "bank_accounts"),
  company_id: CompanyId,
  deleted_at: Schema.NullOr(Timestamp),
}

/** The Schema of {@link StoredRecipient}, named so that declarations refer to it instead of copying it. */
export interface StoredRecipientSchema extends Schema.Struct<typeof storedRecipientFields> {}
/**
 * A recipient as storage keeps it: the wire shape without its bank accounts (stored on their
 * own), with its company and soft-delete time. The storage port's `RecipientRecord` is its type.
 */
export const StoredRecipient: StoredRecipientSchema = Schema.Struct(storedRecipientFields)

const Email = Text.pipe(
  Schema.filter((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) && s.length <= 254, {
    message: () => "is not a valid email address",
  }),
)

const recipientCreateFields = {
  name: required(NonBlank, "Name is required"),
  email: Schema.optional(Schema.NullOr(Email)),
}

/** The Schema of {@link RecipientCreate}, named so that declarations refer to it instead of copying it. */
export interface RecipientCreateSchema extends Schema.Struct<typeof recipientCreateFields> {}
/** Body of `POST /api/v1/companies/{cid}/recipients`. */
export const RecipientCreate: RecipientCreateSchema = Schema.Struct(recipientCreateFields).annotations({
  identifier: "RecipientCreate",
})
export type RecipientCreate = Types.RecipientCreate

/** A stored recipient as the API returns it, with its accounts among `accounts` (none for a new one). */
export const toRecipient = (row: RecipientRecord, accounts: ReadonlyArray<BankAccount> = []): Recipient => ({
  id: row.id,
  name: row.name,
  email: row.email,
  created_at: row.created_at,
  updated_at: row.updated_at,
  bank_accounts: accounts.filter((account) => account.owner_id === row.id),
})
