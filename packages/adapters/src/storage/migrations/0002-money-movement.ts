import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createIndex, createTable } from "./column-helpers.ts"

/** Second schema: bank accounts and their profiles, quotes, payments, the job queue and the event outbox. */
export const moneyMovementSchema = (dialect: StorageDialect): Migration => ({
  async up(db) {
    const { key, text, optionalText, integer, reference } = columnHelpers(dialect)

    await createTable(db, "bank_accounts", {
      id: key,
      company_id: text,
      owner_type: text,
      owner_id: text,
      currency: text,
      current_balance: text,
      last_synced_at: optionalText,
      provider_beneficiary_id: optionalText,
      provider_connection_id: optionalText,
      account_details: text,
      routing_details: text,
      party_address: optionalText,
      created_at: text,
      updated_at: text,
    })
    await createIndex(db, "bank_accounts_by_company", "bank_accounts", ["company_id", "id"])
    await createIndex(db, "bank_accounts_by_owner", "bank_accounts", ["owner_type", "owner_id", "id"])

    await createTable(db, "payment_profiles", {
      id: key,
      bank_account_id: reference("bank_accounts.id"),
      company_id: text,
      status: text,
      payment_method: text,
      currency: text,
      usage_type: text,
      created_at: text,
      updated_at: text,
    })
    await createIndex(db, "payment_profiles_by_account", "payment_profiles", ["bank_account_id", "id"])

    await createTable(db, "quotes", {
      id: key,
      company_id: text,
      from_profile_id: text,
      to_profile_id: text,
      fee_strategy: text,
      payment_method: text,
      instructed_amount: text,
      instructed_currency: text,
      source_amount: text,
      source_currency: text,
      target_amount: text,
      target_currency: text,
      fee: text,
      fee_currency: text,
      exchange_rate: text,
      currency_pair: optionalText,
      expected_completion_date: text,
      expires_at: text,
      created_at: text,
    })

    await createTable(
      db,
      "payments",
      {
        id: key,
        company_id: text,
        quote_id: text,
        idempotency_key: text,
        reason: text,
        credit_note: optionalText,
        debit_note: optionalText,
        payment_batch_id: optionalText,
        status: text,
        machine_version: integer,
        instructed_amount: text,
        instructed_currency: text,
        from_profile_id: text,
        to_profile_id: text,
        provider_payment_id: optionalText,
        failure_reason: optionalText,
        created_at: text,
        updated_at: text,
      },
      // One payment per quote and one per business key of a company, decided by the database.
      (t) =>
        t
          .addUniqueConstraint("payments_quote_id_key", ["quote_id"])
          .addUniqueConstraint("payments_company_idempotency_key", ["company_id", "idempotency_key"]),
    )
    await createIndex(db, "payments_by_company", "payments", ["company_id", "id"])

    await createTable(db, "jobs", {
      id: key,
      kind: text,
      payload: text,
      run_at: text,
      attempts: integer,
      state: text,
      locked_until: optionalText,
      last_error: optionalText,
      created_at: text,
      updated_at: text,
    })
    await createIndex(db, "jobs_due", "jobs", ["state", "run_at", "id"])

    await createTable(db, "events", {
      id: key,
      workspace_id: text,
      company_id: text,
      event: text,
      resource_id: text,
      payload: text,
      created_at: text,
    })
    await createIndex(db, "events_by_company", "events", ["company_id", "id"])
  },
})
