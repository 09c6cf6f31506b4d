import type {
  ApiKeyId,
  ApiKeyRecord,
  ApiKeyRepository,
  ApiKeyScope,
  SettingRepository,
  WorkspaceRecord,
  WorkspaceRepository,
} from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { ApiKeysTable, StorageTables } from "../storage-tables.ts"
import { insertOrRead } from "./insert-or-read.ts"
import { countOf } from "./paging.ts"

type Db = Kysely<StorageTables>

const findWorkspaceByName = async (db: Db, name: string): Promise<WorkspaceRecord | undefined> =>
  db.selectFrom("workspaces").selectAll().where("name", "=", name).executeTakeFirst()

/**
 * Workspaces over one Kysely handle; the unique name decides `insertOrGet`, even between
 * concurrent transactions.
 *
 * @example
 * const ws = await kyselyWorkspaceRepository(trx).insertOrGet({ id: workspaceId, name: "acme", created_at: new Date().toISOString() })
 */
export const kyselyWorkspaceRepository = (db: Db): WorkspaceRepository => ({
  insertOrGet: async (row) => {
    const outcome = await insertOrRead(
      () =>
        db
          .insertInto("workspaces")
          .values({ id: row.id, name: row.name, created_at: row.created_at })
          .onConflict((oc) => oc.column("name").doNothing())
          .returningAll()
          .executeTakeFirst(),
      () => findWorkspaceByName(db, row.name),
      `workspace ${row.name} neither inserted nor found`,
    )
    return "inserted" in outcome ? outcome.inserted : outcome.existing
  },
  findByName: (name) => findWorkspaceByName(db, name),
  findById: (id) => db.selectFrom("workspaces").selectAll().where("id", "=", id).executeTakeFirst(),
})

const toApiKey = (row: Selectable<ApiKeysTable>): ApiKeyRecord => ({
  id: row.id,
  workspace_id: row.workspace_id,
  key: row.key,
  secret_hash: row.secret_hash,
  scope: row.scope as ApiKeyScope,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  rotated_at: row.rotated_at,
  previous_secret_hash: row.previous_secret_hash,
  previous_secret_expires_at: row.previous_secret_expires_at,
})

const findApiKeyById = async (db: Db, id: ApiKeyId): Promise<ApiKeyRecord | undefined> => {
  const row = await db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst()
  return row === undefined ? undefined : toApiKey(row)
}

/**
 * API keys over one Kysely handle.
 *
 * @example
 * const key = await kyselyApiKeyRepository(trx).findByKey("pk_test_1")
 */
export const kyselyApiKeyRepository = (db: Db): ApiKeyRepository => ({
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
  findById: (id) => findApiKeyById(db, id),
  list: async (workspaceId) => {
    let query = db.selectFrom("api_keys").selectAll()
    if (workspaceId !== undefined) query = query.where("workspace_id", "=", workspaceId)
    return (await query.orderBy("id").execute()).map(toApiKey)
  },
  revoke: async (id, revokedAt) => {
    await db
      .updateTable("api_keys")
      .set({ revoked_at: revokedAt })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .execute()
    return findApiKeyById(db, id)
  },
  rotateSecret: async (id, currentHash, rotation) => {
    const row = await db
      .updateTable("api_keys")
      .set({ ...rotation })
      .where("id", "=", id)
      .where("secret_hash", "=", currentHash)
      .where("revoked_at", "is", null)
      .returningAll()
      .executeTakeFirst()
    return row === undefined ? undefined : toApiKey(row)
  },
  count: async () =>
    countOf(
      await db
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll().as("total"))
        .executeTakeFirst(),
    ),
})

const findSetting = async (db: Db, name: string): Promise<string | undefined> =>
  (await db.selectFrom("settings").select("value").where("name", "=", name).executeTakeFirst())?.value

/**
 * Named settings, each written once, over one Kysely handle.
 *
 * @example
 * declare const fresh: string
 * const secret = await kyselySettingRepository(trx).putIfAbsent("jwt_secret", fresh)
 */
export const kyselySettingRepository = (db: Db): SettingRepository => ({
  get: (name) => findSetting(db, name),
  putIfAbsent: async (name, value) => {
    const outcome = await insertOrRead(
      async () =>
        (
          await db
            .insertInto("settings")
            .values({ name, value })
            .onConflict((oc) => oc.column("name").doNothing())
            .returning("value")
            .executeTakeFirst()
        )?.value,
      () => findSetting(db, name),
      `setting ${name} neither stored nor found`,
    )
    return "inserted" in outcome ? outcome.inserted : outcome.existing
  },
  remove: async (name) => {
    const result = await db.deleteFrom("settings").where("name", "=", name).executeTakeFirst()
    return result.numDeletedRows > 0n
  },
})
