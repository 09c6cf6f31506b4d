import type { AttachmentRecord, AttachmentRepository } from "@payments-engine/core"
import type { Kysely } from "kysely"
import type { StorageTables } from "../storage-tables.ts"
import { pageOf } from "./paging.ts"

type Db = Kysely<StorageTables>

/**
 * Onboarding attachments over one Kysely handle, each read and deleted by workspace, entity and
 * id; lists by workspace and entity in id order. The bytes are the blob store's, not here.
 *
 * @example
 * const page = await kyselyAttachmentRepository(trx).list(workspaceId, eid, { offset: 0, limit: 25 })
 */
export const kyselyAttachmentRepository = (db: Db): AttachmentRepository => {
  const ofEntity = (workspaceId: AttachmentRecord["workspace_id"], entityId: AttachmentRecord["entity_id"]) =>
    db.selectFrom("onboarding_attachments").where("workspace_id", "=", workspaceId).where("entity_id", "=", entityId)
  /** `size_bytes` as a number whatever the driver hands back. */
  const toRecord = (row: AttachmentRecord): AttachmentRecord => ({ ...row, size_bytes: Number(row.size_bytes) })
  return {
    insert: async (row) => {
      await db
        .insertInto("onboarding_attachments")
        .values({ ...row })
        .execute()
    },
    find: async (workspaceId, entityId, id) => {
      const row = await ofEntity(workspaceId, entityId).selectAll().where("id", "=", id).executeTakeFirst()
      return row === undefined ? undefined : toRecord(row)
    },
    list: (workspaceId, entityId, window) => pageOf(ofEntity(workspaceId, entityId), window, toRecord),
    delete: async (workspaceId, entityId, id) => {
      const deleted = await db
        .deleteFrom("onboarding_attachments")
        .where("workspace_id", "=", workspaceId)
        .where("entity_id", "=", entityId)
        .where("id", "=", id)
        .returning("id")
        .executeTakeFirst()
      return deleted !== undefined
    },
  }
}
