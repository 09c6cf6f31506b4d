import type {
  ApiKeyId,
  ApplicationId,
  AttachmentContentType,
  AttachmentDocumentType,
  BankAccountId,
  CompanyId,
  EntityId,
  EventId,
  JobId,
  OnboardingAttachmentId,
  OnboardingId,
  OnboardingPersonId,
  OnboardingStatus,
  PaymentBatchId,
  PaymentId,
  PaymentProfileId,
  QuoteId,
  RecipientId,
  TrustedDomainConfigId,
  WebhookDeliveryId,
  WebhookEndpointDisabledReason,
  WebhookEndpointId,
  WebhookRecoveryId,
  WebhookRecoveryStatus,
  WorkspaceId,
} from "@payments-engine/core"

/**
 * The tables of the Kysely storage, as Kysely sees them. Column types are dialect-neutral: ids and
 * ISO 8601 timestamps are `text`, booleans are `integer` 0/1, so one migration set serves SQLite
 * and Postgres. Id columns are typed with core's branded ids: the rows they read are records.
 *
 * @example
 * declare const dialect: import("kysely").Dialect
 * const db = new Kysely<StorageTables>({ dialect })
 * const names = await db.selectFrom("workspaces").select("name").execute()
 */
export interface StorageTables {
  readonly workspaces: WorkspacesTable
  readonly api_keys: ApiKeysTable
  readonly companies: CompaniesTable
  readonly entities: EntitiesTable
  readonly recipients: RecipientsTable
  readonly idempotency_records: IdempotencyRecordsTable
  readonly settings: SettingsTable
  readonly bank_accounts: BankAccountsTable
  readonly payment_profiles: PaymentProfilesTable
  readonly funding_mandates: FundingMandatesTable
  readonly quotes: QuotesTable
  readonly payments: PaymentsTable
  readonly payment_batches: PaymentBatchesTable
  readonly jobs: JobsTable
  readonly events: EventsTable
  readonly features: FeaturesTable
  readonly test_clocks: TestClocksTable
  readonly trusted_domain_configs: TrustedDomainConfigsTable
  readonly used_hosted_page_tokens: UsedHostedPageTokensTable
  readonly workspace_brandings: WorkspaceBrandingsTable
  readonly webhook_endpoints: WebhookEndpointsTable
  readonly webhook_deliveries: WebhookDeliveriesTable
  readonly webhook_recoveries: WebhookRecoveriesTable
  readonly entity_onboardings: EntityOnboardingsTable
  readonly onboarding_persons: OnboardingPersonsTable
  readonly onboarding_attachments: OnboardingAttachmentsTable
}

/** Row of `webhook_deliveries`: `payload` the exact body sent, `attempts` JSON text. */
export interface WebhookDeliveriesTable {
  id: WebhookDeliveryId
  workspace_id: WorkspaceId
  company_id: CompanyId
  endpoint_id: WebhookEndpointId
  event_id: EventId
  event_name: string
  payload: string
  status: string
  machine_version: number
  attempt_count: number
  last_status_code: number | null
  next_attempt_at: string | null
  attempts: string
  created_at: string
  updated_at: string
  lane_id: WebhookDeliveryId | null
}

/** Row of `entity_onboardings`: one per entity; `business_details` is JSON text. */
export interface EntityOnboardingsTable {
  id: OnboardingId
  workspace_id: WorkspaceId
  company_id: CompanyId
  entity_id: EntityId
  status: OnboardingStatus
  submitted_at: string | null
  approved_at: string | null
  primary_contact_email: string | null
  primary_contact_mobile: string | null
  primary_contact_mobile_country_code: string | null
  business_details: string
  created_at: string
  updated_at: string
}

/** Row of `onboarding_attachments`: the bytes are in the blob store under `id`; `content_type` was detected from them. */
export interface OnboardingAttachmentsTable {
  id: OnboardingAttachmentId
  workspace_id: WorkspaceId
  company_id: CompanyId
  entity_id: EntityId
  document_type: AttachmentDocumentType
  file_name: string
  content_type: AttachmentContentType
  size_bytes: number
  sha256: string
  created_at: string
}

/** Row of `onboarding_persons`: `details` is JSON text in which a tax id is sealed (never the number). */
export interface OnboardingPersonsTable {
  id: OnboardingPersonId
  workspace_id: WorkspaceId
  company_id: CompanyId
  entity_id: EntityId
  details: string
  created_at: string
  updated_at: string
}

/** Row of `webhook_endpoints`; `active` is 0/1, `subscriptions` JSON text, `secret` sealed (never the secret). */
export interface WebhookEndpointsTable {
  id: WebhookEndpointId
  uuid: string
  workspace_id: WorkspaceId
  company_id: CompanyId
  url: string
  active: number
  subscriptions: string
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: string | null
  consecutive_failures: number
  circuit_open_until: string | null
  failing_since: string | null
  disabled_reason: WebhookEndpointDisabledReason | null
  disabled_at: string | null
  created_at: string
  updated_at: string
  deleted_at: string | null
}

/** Row of `webhook_recoveries`: `cursor` the last delivery id its job handled. */
export interface WebhookRecoveriesTable {
  id: WebhookRecoveryId
  workspace_id: WorkspaceId
  company_id: CompanyId
  endpoint_id: WebhookEndpointId
  status: WebhookRecoveryStatus
  since: string
  until: string
  deliveries_queued: number
  cursor: WebhookDeliveryId | null
  created_at: string
  updated_at: string
  completed_at: string | null
}

/** Row of `trusted_domain_configs`: one per workspace, `domains` JSON text. */
export interface TrustedDomainConfigsTable {
  id: TrustedDomainConfigId
  workspace_id: WorkspaceId
  domains: string
  created_at: string
  updated_at: string
}

/** Row of `workspace_brandings`: at most one per workspace, every part optional. */
export interface WorkspaceBrandingsTable {
  workspace_id: WorkspaceId
  display_name: string | null
  logo_url: string | null
  accent_color: string | null
  created_at: string
  updated_at: string
}

/** Row of `funding_mandates`: the debit mandate given when a funding account was linked on the hosted page. */
export interface FundingMandatesTable {
  bank_account_id: BankAccountId
  company_id: CompanyId
  email: string
  signatory_name: string
  accepted_at: string
}

/** Row of `used_hosted_page_tokens`: a hosted-page token whose task is done, kept until it expires. */
export interface UsedHostedPageTokensTable {
  token_id: string
  workspace_id: WorkspaceId
  used_at: string
  expires_at: string
}

/** Row of `test_clocks`: a workspace's test clock (sandbox mode). */
export interface TestClocksTable {
  workspace_id: WorkspaceId
  /** Milliseconds ahead of the engine's clock; a bigint, which Postgres hands back as text. */
  offset_ms: number | string
}

/** Row of `features`; (`entity_id`, `feature_identifier`) is unique: one application per entity and feature. */
export interface FeaturesTable {
  application_id: ApplicationId
  workspace_id: WorkspaceId
  company_id: CompanyId
  entity_id: EntityId
  feature_identifier: string
  status: string
  machine_version: number
  created_at: string
  updated_at: string
}

/** Row of `bank_accounts`; details and address are JSON text. */
export interface BankAccountsTable {
  id: BankAccountId
  company_id: CompanyId
  owner_type: string
  owner_id: EntityId | RecipientId
  currency: string
  current_balance: string
  last_synced_at: string | null
  provider_beneficiary_id: string | null
  provider_connection_id: string | null
  account_details: string
  routing_details: string
  party_address: string | null
  created_at: string
  updated_at: string
}

/** Row of `payment_profiles`. */
export interface PaymentProfilesTable {
  id: PaymentProfileId
  bank_account_id: BankAccountId
  company_id: CompanyId
  status: string
  payment_method: string
  currency: string
  usage_type: string
  created_at: string
  updated_at: string
}

/** Row of `quotes`; amounts are exact decimal text. */
export interface QuotesTable {
  id: QuoteId
  company_id: CompanyId
  from_profile_id: PaymentProfileId
  to_profile_id: PaymentProfileId
  fee_strategy: string
  payment_method: string
  instructed_amount: string
  instructed_currency: string
  source_amount: string
  source_currency: string
  target_amount: string
  target_currency: string
  fee: string
  fee_currency: string
  exchange_rate: string
  currency_pair: string | null
  expected_completion_date: string
  expires_at: string
  created_at: string
}

/** Row of `payments`; `quote_id` and (`company_id`, `idempotency_key`) are unique. */
export interface PaymentsTable {
  id: PaymentId
  company_id: CompanyId
  quote_id: QuoteId
  idempotency_key: string
  reason: string
  credit_note: string | null
  debit_note: string | null
  payment_batch_id: PaymentBatchId | null
  status: string
  machine_version: number
  instructed_amount: string
  instructed_currency: string
  from_profile_id: PaymentProfileId
  to_profile_id: PaymentProfileId
  provider_payment_id: string | null
  failure_reason: string | null
  created_at: string
  updated_at: string
}

/** Row of `payment_batches`; (`company_id`, `idempotency_key`) is unique. */
export interface PaymentBatchesTable {
  id: PaymentBatchId
  company_id: CompanyId
  status: string
  label: string | null
  idempotency_key: string | null
  total_count: number
  succeeded_count: number
  failed_count: number
  metadata: string
  machine_version: number
  submitted_at: string | null
  completed_at: string | null
  next_slot_at: string | null
  created_at: string
  updated_at: string
}

/** Row of `jobs`. */
export interface JobsTable {
  id: JobId
  kind: string
  payload: string
  run_at: string
  attempts: number
  state: string
  locked_until: string | null
  last_error: string | null
  /** At most one queued job per key. */
  job_key: string | null
  max_attempts: number
  created_at: string
  updated_at: string
  /** The workspace whose test clock moves the job; null for the engine's own upkeep. */
  workspace_id: WorkspaceId | null
  /** One job of a queue runs at a time; null for none. */
  queue: string | null
}

/** Row of `events`, the transactional outbox. */
export interface EventsTable {
  id: EventId
  workspace_id: WorkspaceId
  company_id: CompanyId
  event: string
  resource_id: string
  payload: string
  created_at: string
}

/**
 * Row of `workspaces`; `name` is unique.
 *
 * @example
 * const row: WorkspacesTable = { id: workspaceId, name: "acme", created_at: new Date().toISOString() }
 */
export interface WorkspacesTable {
  id: WorkspaceId
  name: string
  created_at: string
}

/**
 * Row of `api_keys`; `key` is unique, `workspace_id` references `workspaces`.
 *
 * @example
 * const scopes = await db.selectFrom("api_keys").select("scope").where("workspace_id", "=", workspaceId).execute()
 */
export interface ApiKeysTable {
  id: ApiKeyId
  workspace_id: WorkspaceId
  key: string
  secret_hash: string
  /** "read" or "write". */
  scope: string
  created_at: string
  revoked_at: string | null
  rotated_at: string | null
  previous_secret_hash: string | null
  previous_secret_expires_at: string | null
}

/**
 * Row of `companies`; a company is live while `deleted_at` is null.
 *
 * @example
 * const live = await db.selectFrom("companies").selectAll().where("deleted_at", "is", null).execute()
 */
export interface CompaniesTable {
  id: CompanyId
  workspace_id: WorkspaceId
  name: string
  country: string
  default_currency: string
  /** "api_client" or "platform". */
  role: string
  created_at: string
  updated_at: string
  deleted_at: string | null
}

/**
 * Row of `entities`; a partial unique index allows one live (`deleted_at` null) entity per company.
 *
 * @example
 * const row = await db.selectFrom("entities").selectAll().where("company_id", "=", companyId).executeTakeFirst()
 */
export interface EntitiesTable {
  id: EntityId
  company_id: CompanyId
  name: string
  country_alpha2: string
  /** 1 when the entity's payment-provider integration is active, else 0. */
  payment_integration_active: number
  created_at: string
  updated_at: string
  deleted_at: string | null
}

/**
 * Row of `recipients`; a recipient is live while `deleted_at` is null.
 *
 * @example
 * const emails = await db.selectFrom("recipients").select("email").where("company_id", "=", companyId).execute()
 */
export interface RecipientsTable {
  id: RecipientId
  company_id: CompanyId
  name: string
  email: string | null
  created_at: string
  updated_at: string
  deleted_at: string | null
}

/**
 * Row of `idempotency_records`; the primary key is (`workspace_id`, `key`).
 *
 * @example
 * declare const key: string
 * const row = await db.selectFrom("idempotency_records").selectAll().where("key", "=", key).executeTakeFirst()
 */
export interface IdempotencyRecordsTable {
  workspace_id: WorkspaceId
  key: string
  fingerprint: string
  response_status: number | null
  response_body: string | null
  created_at: string
  expires_at: string
  locked_until: string | null
  owner: string | null
  journal: string | null
}

/**
 * Row of `settings`: a named value written once.
 *
 * @example
 * const secret = await db.selectFrom("settings").select("value").where("name", "=", "jwt_secret").executeTakeFirst()
 */
export interface SettingsTable {
  name: string
  value: string
}
