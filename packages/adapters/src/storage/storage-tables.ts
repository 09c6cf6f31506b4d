/**
 * The tables of the Kysely storage, as Kysely sees them. Column types are dialect-neutral: ids and
 * ISO 8601 timestamps are `text`, booleans are `integer` 0/1, so one migration set serves SQLite
 * and Postgres.
 *
 * @example
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
}

/**
 * Row of `workspaces`; `name` is unique.
 *
 * @example
 * const row: WorkspacesTable = { id: "ws_01J...", name: "acme", created_at: new Date().toISOString() }
 */
export interface WorkspacesTable {
  id: string
  name: string
  created_at: string
}

/**
 * Row of `api_keys`; `key` is unique, `workspace_id` references `workspaces`.
 *
 * @example
 * const scopes = await db.selectFrom("api_keys").select("scope").where("workspace_id", "=", id).execute()
 */
export interface ApiKeysTable {
  id: string
  workspace_id: string
  key: string
  secret_hash: string
  /** "read" or "write". */
  scope: string
  created_at: string
}

/**
 * Row of `companies`; a company is live while `deleted_at` is null.
 *
 * @example
 * const live = await db.selectFrom("companies").selectAll().where("deleted_at", "is", null).execute()
 */
export interface CompaniesTable {
  id: string
  workspace_id: string
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
  id: string
  company_id: string
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
  id: string
  company_id: string
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
 * const row = await db.selectFrom("idempotency_records").selectAll().where("key", "=", key).executeTakeFirst()
 */
export interface IdempotencyRecordsTable {
  workspace_id: string
  key: string
  fingerprint: string
  response_status: number | null
  response_body: string | null
  created_at: string
  expires_at: string
  locked_until: string | null
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
