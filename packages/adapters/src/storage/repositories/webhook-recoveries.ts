import type { WebhookRecoveryRecord, WebhookRecoveryRepository } from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { StorageTables, WebhookRecoveriesTable } from "../storage-tables.ts"

type Db = Kysely<StorageTables>

const toRecovery = (row: Selectable<WebhookRecoveriesTable>): WebhookRecoveryRecord => ({
  ...row,
  deliveries_queued: Number(row.deliveries_queued),
})

/**
 * Recoveries over one Kysely handle, each read and written within its workspace; a job's
 * progress is one `UPDATE ... WHERE status = ? AND cursor IS NOT DISTINCT FROM ?`.
 *
 * @example
 * declare const recoveryId: WebhookRecoveryId
 * const recovery = await kyselyWebhookRecoveryRepository(trx).find(workspaceId, recoveryId)
 */
export const kyselyWebhookRecoveryRepository = (db: Db): WebhookRecoveryRepository => ({
  insert: async (row) => {
    await db.insertInto("webhook_recoveries").values(row).execute()
  },
  find: async (workspaceId, id) => {
    const row = await db
      .selectFrom("webhook_recoveries")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst()
    return row === undefined ? undefined : toRecovery(row)
  },
  advance: async (workspaceId, id, from, progress) => {
    const row = await db
      .updateTable("webhook_recoveries")
      .set(progress)
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .where("status", "=", from.status)
      .where((eb) => (from.cursor === null ? eb("cursor", "is", null) : eb("cursor", "=", from.cursor)))
      .returningAll()
      .executeTakeFirst()
    return row === undefined ? undefined : toRecovery(row)
  },
})
