import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createTable } from "./column-helpers.ts"

/** Funding mandates: one per funding account linked on the hosted page, keyed by the account. */
export const fundingMandatesSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text, reference } = columnHelpers(dialect)
    await createTable(db, "funding_mandates", {
      bank_account_id: key,
      company_id: reference("companies.id"),
      email: text,
      signatory_name: text,
      accepted_at: text,
    })
  },
})
