import type { BankAccount } from "./bank-account.ts"
import type { CompanyId, RecipientId } from "./ids.ts"

// The types of `model/recipient.ts`, written out (docs/decisions.md, "Public types").

/** A recipient (payee) as the API returns it, with its bank accounts. */
export interface Recipient {
  readonly id: RecipientId
  readonly name: string
  readonly email: string | null
  readonly created_at: string
  readonly updated_at: string
  /** Empty for a new recipient. */
  readonly bank_accounts: ReadonlyArray<BankAccount>
}

/** A recipient as storage keeps it. */
export interface RecipientRecord {
  readonly id: RecipientId
  readonly name: string
  readonly email: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly company_id: CompanyId
  readonly deleted_at: string | null
}

/** Body of `POST /api/v1/companies/{cid}/recipients`. */
export interface RecipientCreate {
  readonly name: string
  readonly email?: string | null
}

/** Body of a recipient's create, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface RecipientCreateBody {
  readonly name: string
  readonly email?: string | null
}
