import { Schema, Struct } from "effect"
import { BankAccount } from "./bank-account.ts"
import { NonBlank, required, Text, Timestamp } from "./fields.ts"
import { CompanyId, RecipientId } from "./ids.ts"

/** A recipient (payee) as the API returns it, with its bank accounts. */
export const Recipient = Schema.Struct({
  id: RecipientId,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp,
  bank_accounts: Schema.Array(BankAccount).annotations({ description: "empty for a new recipient" }),
}).annotations({ identifier: "Recipient" })
export type Recipient = typeof Recipient.Type

/**
 * A recipient as storage keeps it: the wire shape without its bank accounts (stored on their
 * own), with its company and soft-delete time. The storage port's `RecipientRecord` is its type.
 */
export const StoredRecipient = Schema.Struct({
  ...Struct.omit(Recipient.fields, "bank_accounts"),
  company_id: CompanyId,
  deleted_at: Schema.NullOr(Timestamp),
})

/** A stored recipient: the type of {@link StoredRecipient}. */
export type RecipientRecord = typeof StoredRecipient.Type

const Email = Text.pipe(
  Schema.filter((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) && s.length <= 254, {
    message: () => "is not a valid email address",
  }),
)

/** Body of `POST /api/v1/companies/{cid}/recipients`. */
export const RecipientCreate = Schema.Struct({
  name: required(NonBlank, "Name is required"),
  email: Schema.optional(Schema.NullOr(Email)),
}).annotations({ identifier: "RecipientCreate" })
export type RecipientCreate = typeof RecipientCreate.Type

/** A stored recipient as the API returns it, with its accounts among `accounts` (none for a new one). */
export const toRecipient = (row: RecipientRecord, accounts: ReadonlyArray<BankAccount> = []): Recipient => ({
  id: row.id,
  name: row.name,
  email: row.email,
  created_at: row.created_at,
  updated_at: row.updated_at,
  bank_accounts: accounts.filter((account) => account.owner_id === row.id),
})
