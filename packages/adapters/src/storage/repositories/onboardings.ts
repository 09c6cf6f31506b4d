import type { OnboardingRepository, PersonRecord, PersonRepository } from "@payments-engine/core"
import type { Kysely } from "kysely"
import type { StorageTables } from "../storage-tables.ts"
import { pageOf } from "./paging.ts"

type Db = Kysely<StorageTables>

/**
 * Entity onboardings over one Kysely handle, each read and written by workspace and entity (or
 * its id). The unique index on `entity_id` decides which of two racing first saves inserts.
 *
 * @example
 * const onboarding = await kyselyOnboardingRepository(trx).findByEntity(workspaceId, eid)
 */
export const kyselyOnboardingRepository = (db: Db): OnboardingRepository => ({
  insertIfNone: async (row) => {
    const inserted = await db
      .insertInto("entity_onboardings")
      .values({ ...row })
      .onConflict((oc) => oc.column("entity_id").doNothing())
      .returning("id")
      .executeTakeFirst()
    return inserted !== undefined
  },
  findByEntity: (workspaceId, entityId) =>
    db
      .selectFrom("entity_onboardings")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("entity_id", "=", entityId)
      .executeTakeFirst(),
  update: (workspaceId, id, change) =>
    db
      .updateTable("entity_onboardings")
      .set({ ...change })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst(),
  setStatus: async (workspaceId, entityId, change) => {
    const updated = await db
      .updateTable("entity_onboardings")
      .set({ ...change })
      .where("workspace_id", "=", workspaceId)
      .where("entity_id", "=", entityId)
      .returning("id")
      .executeTakeFirst()
    return updated !== undefined
  },
})

/**
 * Onboarding persons over one Kysely handle, each read and written by workspace, entity and id;
 * lists by workspace and entity in id order.
 *
 * @example
 * const persons = await kyselyPersonRepository(trx).list(workspaceId, eid, { offset: 0, limit: 25 })
 */
export const kyselyPersonRepository = (db: Db): PersonRepository => {
  const ofEntity = (workspaceId: PersonRecord["workspace_id"], entityId: PersonRecord["entity_id"]) =>
    db.selectFrom("onboarding_persons").where("workspace_id", "=", workspaceId).where("entity_id", "=", entityId)
  return {
    insert: async (row) => {
      await db
        .insertInto("onboarding_persons")
        .values({ ...row })
        .execute()
    },
    find: (workspaceId, entityId, id) =>
      ofEntity(workspaceId, entityId).selectAll().where("id", "=", id).executeTakeFirst(),
    list: (workspaceId, entityId, window) => pageOf(ofEntity(workspaceId, entityId), window, (row) => row),
    listAll: (workspaceId, entityId) => ofEntity(workspaceId, entityId).selectAll().orderBy("id").execute(),
    update: (workspaceId, entityId, id, change) =>
      db
        .updateTable("onboarding_persons")
        .set({ ...change })
        .where("workspace_id", "=", workspaceId)
        .where("entity_id", "=", entityId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst(),
    delete: async (workspaceId, entityId, id) => {
      const deleted = await db
        .deleteFrom("onboarding_persons")
        .where("workspace_id", "=", workspaceId)
        .where("entity_id", "=", entityId)
        .where("id", "=", id)
        .returning("id")
        .executeTakeFirst()
      return deleted !== undefined
    },
  }
}
