import type {
  ApiKeyRecord,
  ApiKeyScope,
  ClaimResult,
  CompanyRecord,
  CompanyRole,
  EntityRecord,
  IdempotencyRecord,
  RecipientRecord,
  Repositories,
  Slice,
  Window,
  WorkspaceRecord,
} from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import { kyselyJobRepository } from "../jobs/kysely-job-table.ts"
import { kyselyFeatureRepository } from "./kysely-feature-repositories.ts"
import { kyselyMoneyRepositoryFactories } from "./kysely-money-repositories.ts"
import { lazyRepositories, type RepositoryFactories } from "./lazy-repositories.ts"
import { preparedQuery } from "./prepared-query.ts"
import type {
  ApiKeysTable,
  CompaniesTable,
  EntitiesTable,
  IdempotencyRecordsTable,
  RecipientsTable,
  StorageTables,
} from "./storage-tables.ts"
import { companyColumns } from "./table-columns.ts"

type MoneyRepositories = Pick<Repositories, "bankAccounts" | "paymentProfiles" | "quotes" | "payments" | "events">

type Db = Kysely<StorageTables>

/** Every use case that names a company reads it first: compiled once (see preparedQuery). */
const findCompany = preparedQuery((db: Db, p: { readonly workspaceId: string; readonly id: string }) =>
  db.selectFrom("companies").select(companyColumns).where("workspace_id", "=", p.workspaceId).where("id", "=", p.id),
)

/** Rejects windows that no SQL database reads the same way (SQLite takes a negative LIMIT as "no limit"). */
const checkedWindow = (window: Window): Window => {
  const { offset, limit } = window
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`invalid window: offset and limit must be non-negative safe integers, got ${offset}, ${limit}`)
  }
  return window
}

/** `count(*)` arrives as a number (SQLite), a string (pg) or a bigint, depending on the driver. */
const countOf = (row: { readonly total: string | number | bigint } | undefined): number => Number(row?.total ?? 0)

const toApiKey = (row: Selectable<ApiKeysTable>): ApiKeyRecord => ({
  id: row.id,
  workspace_id: row.workspace_id,
  key: row.key,
  secret_hash: row.secret_hash,
  scope: row.scope as ApiKeyScope,
  created_at: row.created_at,
})

const toCompany = (row: Selectable<CompaniesTable>): CompanyRecord => ({
  id: row.id,
  workspace_id: row.workspace_id,
  name: row.name,
  country: row.country,
  default_currency: row.default_currency,
  role: row.role as CompanyRole,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
})

const toEntity = (row: Selectable<EntitiesTable>): EntityRecord => ({
  id: row.id,
  company_id: row.company_id,
  name: row.name,
  country_alpha2: row.country_alpha2,
  payment_integration_active: Number(row.payment_integration_active) === 1,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
})

const entityRow = (row: EntityRecord): EntitiesTable => ({
  id: row.id,
  company_id: row.company_id,
  name: row.name,
  country_alpha2: row.country_alpha2,
  payment_integration_active: row.payment_integration_active ? 1 : 0,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
})

const toRecipient = (row: Selectable<RecipientsTable>): RecipientRecord => ({
  id: row.id,
  company_id: row.company_id,
  name: row.name,
  email: row.email,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
})

const toIdempotency = (row: Selectable<IdempotencyRecordsTable>): IdempotencyRecord => ({
  workspace_id: row.workspace_id,
  key: row.key,
  fingerprint: row.fingerprint,
  response_status: row.response_status === null ? null : Number(row.response_status),
  response_body: row.response_body,
  created_at: row.created_at,
  expires_at: row.expires_at,
  locked_until: row.locked_until,
})

/**
 * How many times an insert-or-read retries when the conflicting row vanished between the insert
 * and the read (another transaction deleted it). Twice is plenty; more means something is wrong.
 */
const conflictAttempts = 3

const findWorkspaceByName = async (db: Db, name: string): Promise<WorkspaceRecord | undefined> =>
  db.selectFrom("workspaces").selectAll().where("name", "=", name).executeTakeFirst()

const findIdempotency = async (db: Db, workspaceId: string, key: string): Promise<IdempotencyRecord | undefined> => {
  const row = await db
    .selectFrom("idempotency_records")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("key", "=", key)
    .executeTakeFirst()
  return row === undefined ? undefined : toIdempotency(row)
}

const findSetting = async (db: Db, name: string): Promise<string | undefined> =>
  (await db.selectFrom("settings").select("value").where("name", "=", name).executeTakeFirst())?.value

/** The repositories of the storage port that are not money movement's, one factory each. */
const coreRepositoryFactories: RepositoryFactories<Omit<Repositories, keyof MoneyRepositories | "features" | "jobs">> =
  {
    workspaces: (db) => ({
      insertOrGet: async (row) => {
        for (let attempt = 0; attempt < conflictAttempts; attempt += 1) {
          const inserted = await db
            .insertInto("workspaces")
            .values({ id: row.id, name: row.name, created_at: row.created_at })
            .onConflict((oc) => oc.column("name").doNothing())
            .returningAll()
            .executeTakeFirst()
          if (inserted !== undefined) return inserted
          const existing = await findWorkspaceByName(db, row.name)
          if (existing !== undefined) return existing
        }
        throw new Error(`workspace ${row.name} neither inserted nor found`)
      },
      findByName: (name: string) => findWorkspaceByName(db, name),
    }),

    apiKeys: (db) => ({
      insert: async (row) => {
        await db
          .insertInto("api_keys")
          .values({ ...row })
          .execute()
      },
      findByKey: async (key) => {
        const row = await db.selectFrom("api_keys").selectAll().where("key", "=", key).executeTakeFirst()
        return row === undefined ? undefined : toApiKey(row)
      },
      count: async () =>
        countOf(
          await db
            .selectFrom("api_keys")
            .select((eb) => eb.fn.countAll().as("total"))
            .executeTakeFirst(),
        ),
    }),

    companies: (db) => ({
      insert: async (row) => {
        await db
          .insertInto("companies")
          .values({ ...row })
          .execute()
      },
      find: async (workspaceId, id) => {
        const [row] = await findCompany(db, { workspaceId, id })
        return row === undefined ? undefined : toCompany(row)
      },
      update: async (row) => {
        await db
          .updateTable("companies")
          .set({
            name: row.name,
            country: row.country,
            default_currency: row.default_currency,
            role: row.role,
            created_at: row.created_at,
            updated_at: row.updated_at,
            deleted_at: row.deleted_at,
          })
          .where("workspace_id", "=", row.workspace_id)
          .where("id", "=", row.id)
          .execute()
      },
      listActive: async (workspaceId, window): Promise<Slice<CompanyRecord>> => {
        const { offset, limit } = checkedWindow(window)
        const live = db.selectFrom("companies").where("workspace_id", "=", workspaceId).where("deleted_at", "is", null)
        const total = countOf(await live.select((eb) => eb.fn.countAll().as("total")).executeTakeFirst())
        if (limit === 0 || offset >= total) return { rows: [], total }
        const rows = await live.selectAll().orderBy("id").limit(limit).offset(offset).execute()
        return { rows: rows.map(toCompany), total }
      },
    }),

    entities: (db) => ({
      insertIfNoneActive: async (row) => {
        // The partial unique index decides, atomically, even between concurrent transactions.
        const inserted = await db
          .insertInto("entities")
          .values(entityRow(row))
          .onConflict((oc) => oc.column("company_id").where("deleted_at", "is", null).doNothing())
          .returning("id")
          .executeTakeFirst()
        return inserted !== undefined
      },
      findActive: async (companyId, id) => {
        const row = await db
          .selectFrom("entities")
          .selectAll()
          .where("company_id", "=", companyId)
          .where("id", "=", id)
          .where("deleted_at", "is", null)
          .executeTakeFirst()
        return row === undefined ? undefined : toEntity(row)
      },
      findActiveById: async (id) => {
        const row = await db
          .selectFrom("entities")
          .selectAll()
          .where("id", "=", id)
          .where("deleted_at", "is", null)
          .executeTakeFirst()
        return row === undefined ? undefined : toEntity(row)
      },
      findActiveOfCompany: async (companyId) => {
        const row = await db
          .selectFrom("entities")
          .selectAll()
          .where("company_id", "=", companyId)
          .where("deleted_at", "is", null)
          .orderBy("id")
          .executeTakeFirst()
        return row === undefined ? undefined : toEntity(row)
      },
      update: async (row) => {
        // The integration flag has one writer, `markIntegrationActive`: a stale row cannot clear it.
        const { id, company_id, payment_integration_active: _flag, ...fields } = entityRow(row)
        await db.updateTable("entities").set(fields).where("company_id", "=", company_id).where("id", "=", id).execute()
      },
      markIntegrationActive: async (companyId, id) => {
        const marked = await db
          .updateTable("entities")
          .set({ payment_integration_active: 1 })
          .where("company_id", "=", companyId)
          .where("id", "=", id)
          .where("deleted_at", "is", null)
          .returning("id")
          .executeTakeFirst()
        return marked !== undefined
      },
      listActive: async (companyId, window): Promise<Slice<EntityRecord>> => {
        const { offset, limit } = checkedWindow(window)
        const live = db.selectFrom("entities").where("company_id", "=", companyId).where("deleted_at", "is", null)
        const total = countOf(await live.select((eb) => eb.fn.countAll().as("total")).executeTakeFirst())
        if (limit === 0 || offset >= total) return { rows: [], total }
        const rows = await live.selectAll().orderBy("id").limit(limit).offset(offset).execute()
        return { rows: rows.map(toEntity), total }
      },
    }),

    recipients: (db) => ({
      insert: async (row) => {
        await db
          .insertInto("recipients")
          .values({ ...row })
          .execute()
      },
      findActive: async (companyId, id) => {
        const row = await db
          .selectFrom("recipients")
          .selectAll()
          .where("company_id", "=", companyId)
          .where("id", "=", id)
          .where("deleted_at", "is", null)
          .executeTakeFirst()
        return row === undefined ? undefined : toRecipient(row)
      },
      update: async (row) => {
        await db
          .updateTable("recipients")
          .set({
            name: row.name,
            email: row.email,
            created_at: row.created_at,
            updated_at: row.updated_at,
            deleted_at: row.deleted_at,
          })
          .where("company_id", "=", row.company_id)
          .where("id", "=", row.id)
          .execute()
      },
      listActive: async (companyId, window): Promise<Slice<RecipientRecord>> => {
        const { offset, limit } = checkedWindow(window)
        const live = db.selectFrom("recipients").where("company_id", "=", companyId).where("deleted_at", "is", null)
        const total = countOf(await live.select((eb) => eb.fn.countAll().as("total")).executeTakeFirst())
        if (limit === 0 || offset >= total) return { rows: [], total }
        const rows = await live.selectAll().orderBy("id").limit(limit).offset(offset).execute()
        return { rows: rows.map(toRecipient), total }
      },
    }),

    idempotency: (db) => ({
      claim: async (row): Promise<ClaimResult> => {
        for (let attempt = 0; attempt < conflictAttempts; attempt += 1) {
          // On Postgres a racing insert of the same key waits for the first transaction, then does
          // nothing; the read that follows is a new statement and sees the committed winner.
          const inserted = await db
            .insertInto("idempotency_records")
            .values({ ...row })
            .onConflict((oc) => oc.columns(["workspace_id", "key"]).doNothing())
            .returning("key")
            .executeTakeFirst()
          if (inserted !== undefined) return { claimed: true }
          const existing = await findIdempotency(db, row.workspace_id, row.key)
          if (existing !== undefined) return { claimed: false, existing }
        }
        throw new Error(`idempotency key ${row.key} neither claimed nor found`)
      },
      find: (workspaceId, key) => findIdempotency(db, workspaceId, key),
      replace: async (row) => {
        const { workspace_id, key, ...fields } = row
        await db
          .insertInto("idempotency_records")
          .values({ ...row })
          .onConflict((oc) => oc.columns(["workspace_id", "key"]).doUpdateSet({ ...fields }))
          .execute()
      },
      delete: async (workspaceId, key) => {
        await db
          .deleteFrom("idempotency_records")
          .where("workspace_id", "=", workspaceId)
          .where("key", "=", key)
          .execute()
      },
      purgeExpired: async (now) => {
        const purged = await db
          .deleteFrom("idempotency_records")
          .where("expires_at", "<=", now)
          .returning("key")
          .execute()
        return purged.length
      },
    }),

    settings: (db) => ({
      get: (name) => findSetting(db, name),
      putIfAbsent: async (name, value) => {
        for (let attempt = 0; attempt < conflictAttempts; attempt += 1) {
          const inserted = await db
            .insertInto("settings")
            .values({ name, value })
            .onConflict((oc) => oc.column("name").doNothing())
            .returning("value")
            .executeTakeFirst()
          if (inserted !== undefined) return inserted.value
          const existing = await findSetting(db, name)
          if (existing !== undefined) return existing
        }
        throw new Error(`setting ${name} neither stored nor found`)
      },
    }),
  }

/**
 * The storage port's repositories over one Kysely handle, usually a transaction, each built when
 * the transaction first uses it. Every method is scoped by the ids it receives, and every
 * conditional write reads its outcome from `RETURNING`.
 *
 * @example
 * const company = await db.transaction().execute((trx) => kyselyRepositories(trx).companies.find(wsId, id))
 */
export const kyselyRepositories: (db: Db) => Repositories = lazyRepositories<Repositories>({
  ...coreRepositoryFactories,
  ...kyselyMoneyRepositoryFactories,
  features: kyselyFeatureRepository,
  // The embedded runner's table; a storage on graphile-worker replaces it per transaction.
  jobs: kyselyJobRepository,
})
