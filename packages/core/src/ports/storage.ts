import type { FeatureRepository } from "./feature-storage.ts"
import type { MoneyRepositories } from "./money-storage.ts"

/**
 * The storage port: everything the engine keeps. Timestamps are ISO 8601 strings in UTC with
 * milliseconds (`Date.prototype.toISOString()`), so they sort as text on every database.
 *
 * An adapter passes `runContractSuite` from `@payments-engine/contract-tests`.
 *
 * @example
 * const storage = await openSqliteStorage({ filename: ":memory:" }) // from @payments-engine/adapters
 * const engine = createEngine({ storage, clock, ids, hasher })
 */
export interface Storage {
  /** What this adapter can do; the contract suite reads it to decide what to run. */
  readonly capabilities: StorageCapabilities
  /**
   * Runs `work` in one transaction: commits when its promise resolves, rolls back when it rejects
   * (and rejects with the same reason). Work may be retried by the caller, never by the adapter.
   */
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>
  /** Releases connections. The storage is unusable afterwards. */
  close(): Promise<void>
}

export interface StorageCapabilities {
  /** Several engine processes may share this storage (true for Postgres, false for SQLite). */
  readonly multiProcess: boolean
}

/** The repositories, bound to one transaction. */
export interface Repositories extends MoneyRepositories {
  readonly workspaces: WorkspaceRepository
  readonly apiKeys: ApiKeyRepository
  readonly companies: CompanyRepository
  readonly entities: EntityRepository
  readonly recipients: RecipientRepository
  readonly idempotency: IdempotencyRepository
  readonly settings: SettingRepository
  readonly features: FeatureRepository
}

/** A slice of a list: rows to skip and rows to return. */
export interface Window {
  readonly offset: number
  readonly limit: number
}

/** Rows of a window, in id order, and the number of rows in the whole list. */
export interface Slice<T> {
  readonly rows: ReadonlyArray<T>
  readonly total: number
}

export interface WorkspaceRecord {
  readonly id: string
  readonly name: string
  readonly created_at: string
}

export interface WorkspaceRepository {
  /** Inserts unless a workspace of that name exists; returns the one stored either way. */
  insertOrGet(row: WorkspaceRecord): Promise<WorkspaceRecord>
  findByName(name: string): Promise<WorkspaceRecord | undefined>
}

export type ApiKeyScope = "read" | "write"

export interface ApiKeyRecord {
  readonly id: string
  readonly workspace_id: string
  /** The public half a client sends as `api_key`. Unique. */
  readonly key: string
  readonly secret_hash: string
  readonly scope: ApiKeyScope
  readonly created_at: string
}

export interface ApiKeyRepository {
  insert(row: ApiKeyRecord): Promise<void>
  findByKey(key: string): Promise<ApiKeyRecord | undefined>
  count(): Promise<number>
}

/** How a company came to exist; only `api_client` companies may be deleted. */
export type CompanyRole = "api_client" | "platform"

export interface CompanyRecord {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly country: string
  readonly default_currency: string
  readonly role: CompanyRole
  readonly created_at: string
  readonly updated_at: string
  readonly deleted_at: string | null
}

export interface CompanyRepository {
  insert(row: CompanyRecord): Promise<void>
  /** The company of that workspace, deleted or not. */
  find(workspaceId: string, id: string): Promise<CompanyRecord | undefined>
  /** Writes every field of the row with that id. */
  update(row: CompanyRecord): Promise<void>
  /** Companies of the workspace that are not deleted, in id order. */
  listActive(workspaceId: string, window: Window): Promise<Slice<CompanyRecord>>
}

export interface EntityRecord {
  readonly id: string
  readonly company_id: string
  readonly name: string
  readonly country_alpha2: string
  /** Set once the entity's payment-provider integration is complete (its feature is ACTIVE). */
  readonly payment_integration_active: boolean
  readonly created_at: string
  readonly updated_at: string
  readonly deleted_at: string | null
}

export interface EntityRepository {
  /**
   * Inserts the entity unless its company already has one that is not deleted, and says whether
   * it did. Must hold under concurrency: of two racing inserts for one company, one returns false.
   */
  insertIfNoneActive(row: EntityRecord): Promise<boolean>
  /** The entity of that company if it is not deleted. */
  findActive(companyId: string, id: string): Promise<EntityRecord | undefined>
  /** The entity with that id if it is not deleted, whatever its company (check the company's workspace). */
  findActiveById(id: string): Promise<EntityRecord | undefined>
  /** The company's entity that is not deleted, if any. */
  findActiveOfCompany(companyId: string): Promise<EntityRecord | undefined>
  /**
   * Writes every field of the row with that id except `payment_integration_active`, which only
   * {@link EntityRepository.markIntegrationActive} sets: an update built from a read made before
   * the entity's feature became ACTIVE must not clear it.
   */
  update(row: EntityRecord): Promise<void>
  /**
   * Sets `payment_integration_active` on the company's entity, leaving every other column as it
   * is; says whether a live entity was marked. The flag is never cleared.
   *
   * @example
   * await tx.entities.markIntegrationActive(feature.company_id, feature.entity_id)
   */
  markIntegrationActive(companyId: string, id: string): Promise<boolean>
  listActive(companyId: string, window: Window): Promise<Slice<EntityRecord>>
}

export interface RecipientRecord {
  readonly id: string
  readonly company_id: string
  readonly name: string
  readonly email: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly deleted_at: string | null
}

export interface RecipientRepository {
  insert(row: RecipientRecord): Promise<void>
  findActive(companyId: string, id: string): Promise<RecipientRecord | undefined>
  update(row: RecipientRecord): Promise<void>
  listActive(companyId: string, window: Window): Promise<Slice<RecipientRecord>>
}

export interface IdempotencyRecord {
  readonly workspace_id: string
  readonly key: string
  /** Hash of method, path and body of the first request. */
  readonly fingerprint: string
  /** Null while the first request runs. */
  readonly response_status: number | null
  readonly response_body: string | null
  readonly created_at: string
  /** The record is ignored and may be purged from then on. */
  readonly expires_at: string
  /** While the first request runs, other requests wait until then before taking the key over. */
  readonly locked_until: string | null
}

export type ClaimResult = { readonly claimed: true } | { readonly claimed: false; readonly existing: IdempotencyRecord }

export interface IdempotencyRepository {
  /**
   * Inserts the record unless one with the same workspace and key exists, which it then returns
   * unchanged. Must hold under concurrency: of two racing claims, one is told `claimed: false`.
   */
  claim(row: IdempotencyRecord): Promise<ClaimResult>
  find(workspaceId: string, key: string): Promise<IdempotencyRecord | undefined>
  /** Replaces the record with the same workspace and key. */
  replace(row: IdempotencyRecord): Promise<void>
  delete(workspaceId: string, key: string): Promise<void>
  /** Deletes records whose `expires_at` is at or before `now`; returns how many. */
  purgeExpired(now: string): Promise<number>
}

export interface SettingRepository {
  get(name: string): Promise<string | undefined>
  /** Stores the value unless the setting exists; returns the stored value either way. */
  putIfAbsent(name: string, value: string): Promise<string>
}
