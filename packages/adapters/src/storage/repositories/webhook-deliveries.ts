import type { WebhookDeliveryRecord, WebhookDeliveryRepository, WebhookDeliveryStateValue } from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { StorageTables, WebhookDeliveriesTable } from "../storage-tables.ts"
import { pageOf } from "./paging.ts"

type Db = Kysely<StorageTables>

const toDelivery = (row: Selectable<WebhookDeliveriesTable>): WebhookDeliveryRecord => ({
  ...row,
  status: row.status as WebhookDeliveryStateValue,
  machine_version: Number(row.machine_version),
  attempt_count: Number(row.attempt_count),
  last_status_code: row.last_status_code === null ? null : Number(row.last_status_code),
})

/**
 * Webhook deliveries over one Kysely handle. `insertIfNew` leaves the unique index of endpoint
 * and event to decide (DO NOTHING keeps a Postgres transaction usable); `compareAndSet` decides in
 * one `UPDATE ... WHERE status = ? AND attempt_count = ?`.
 *
 * @example
 * const delivery = await kyselyWebhookDeliveryRepository(trx).findById("whd_1")
 */
export const kyselyWebhookDeliveryRepository = (db: Db): WebhookDeliveryRepository => ({
  insertIfNew: async (row) => {
    const inserted = await db
      .insertInto("webhook_deliveries")
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .executeTakeFirst()
    return inserted !== undefined
  },
  findById: async (id) => {
    const row = await db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst()
    return row === undefined ? undefined : toDelivery(row)
  },
  find: async (workspaceId, id) => {
    const row = await db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst()
    return row === undefined ? undefined : toDelivery(row)
  },
  listByEndpoint: (workspaceId, endpointId, window) =>
    pageOf(
      db.selectFrom("webhook_deliveries").where("workspace_id", "=", workspaceId).where("endpoint_id", "=", endpointId),
      window,
      toDelivery,
      "newest",
    ),
  compareAndSet: async (id, from, change) => {
    const row = await db
      .updateTable("webhook_deliveries")
      .set(change)
      .where("id", "=", id)
      .where("status", "=", from.status)
      .where("attempt_count", "=", from.attempt_count)
      .returningAll()
      .executeTakeFirst()
    return row === undefined ? undefined : toDelivery(row)
  },
})
