import type {
  BankAccountsTable,
  CompaniesTable,
  EntitiesTable,
  PaymentBatchesTable,
  PaymentProfilesTable,
  PaymentsTable,
  QuotesTable,
  RecipientsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from "./storage-tables.ts"

/**
 * Every column of a table as a list the compiler checks against the table's type both ways: a
 * name the table lacks, or a column left out, is a type error.
 */
const allColumns =
  <T>() =>
  <const C extends ReadonlyArray<keyof T & string>>(
    columns: C & ([Exclude<keyof T, C[number]>] extends [never] ? unknown : never),
  ): C =>
    columns

/*
 * The columns the prepared (named) statements select, named instead of `*`: Postgres refuses to
 * run a named statement whose `*` came to mean more columns ("cached plan must not change result
 * type"), which a migration adding a column would do to every running process.
 */

export const companyColumns = allColumns<CompaniesTable>()([
  "id",
  "workspace_id",
  "name",
  "country",
  "default_currency",
  "role",
  "created_at",
  "updated_at",
  "deleted_at",
])

export const entityColumns = allColumns<EntitiesTable>()([
  "id",
  "company_id",
  "name",
  "country_alpha2",
  "payment_integration_active",
  "created_at",
  "updated_at",
  "deleted_at",
])

export const recipientColumns = allColumns<RecipientsTable>()([
  "id",
  "company_id",
  "name",
  "email",
  "created_at",
  "updated_at",
  "deleted_at",
])

export const bankAccountColumns = allColumns<BankAccountsTable>()([
  "id",
  "company_id",
  "owner_type",
  "owner_id",
  "currency",
  "current_balance",
  "last_synced_at",
  "provider_beneficiary_id",
  "provider_connection_id",
  "account_details",
  "routing_details",
  "party_address",
  "created_at",
  "updated_at",
])

export const paymentProfileColumns = allColumns<PaymentProfilesTable>()([
  "id",
  "bank_account_id",
  "company_id",
  "status",
  "payment_method",
  "currency",
  "usage_type",
  "created_at",
  "updated_at",
])

export const quoteColumns = allColumns<QuotesTable>()([
  "id",
  "company_id",
  "from_profile_id",
  "to_profile_id",
  "fee_strategy",
  "payment_method",
  "instructed_amount",
  "instructed_currency",
  "source_amount",
  "source_currency",
  "target_amount",
  "target_currency",
  "fee",
  "fee_currency",
  "exchange_rate",
  "currency_pair",
  "expected_completion_date",
  "expires_at",
  "created_at",
])

export const paymentColumns = allColumns<PaymentsTable>()([
  "id",
  "company_id",
  "quote_id",
  "idempotency_key",
  "reason",
  "credit_note",
  "debit_note",
  "payment_batch_id",
  "status",
  "machine_version",
  "instructed_amount",
  "instructed_currency",
  "from_profile_id",
  "to_profile_id",
  "provider_payment_id",
  "failure_reason",
  "created_at",
  "updated_at",
])

export const paymentBatchColumns = allColumns<PaymentBatchesTable>()([
  "id",
  "company_id",
  "status",
  "label",
  "idempotency_key",
  "total_count",
  "succeeded_count",
  "failed_count",
  "metadata",
  "machine_version",
  "submitted_at",
  "completed_at",
  "next_slot_at",
  "created_at",
  "updated_at",
])

export const webhookEndpointColumns = allColumns<WebhookEndpointsTable>()([
  "id",
  "uuid",
  "workspace_id",
  "company_id",
  "url",
  "active",
  "subscriptions",
  "secret",
  "previous_secret",
  "previous_secret_expires_at",
  "consecutive_failures",
  "circuit_open_until",
  "failing_since",
  "disabled_reason",
  "disabled_at",
  "created_at",
  "updated_at",
  "deleted_at",
])

export const webhookDeliveryColumns = allColumns<WebhookDeliveriesTable>()([
  "id",
  "workspace_id",
  "company_id",
  "endpoint_id",
  "event_id",
  "event_name",
  "payload",
  "status",
  "machine_version",
  "attempt_count",
  "last_status_code",
  "next_attempt_at",
  "attempts",
  "created_at",
  "updated_at",
  "lane_id",
])
