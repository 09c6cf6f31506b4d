import { type Kysely, type Migration, sql } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers } from "./column-helpers.ts"

/**
 * Deliveries in lanes: `lane_id` names the delivery whose job is sending a delivery now (its
 * lane's head), so no other job sends it meanwhile, and after a crash the head's job, run again,
 * takes back the deliveries it held. A job reads the deliveries of its endpoint that are due; a
 * partial index holds only the pending ones, by endpoint and due time.
 */
export const webhookDeliveryLanesSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { textType } = columnHelpers(dialect)
    await db.schema.alterTable("webhook_deliveries").addColumn("lane_id", textType).execute()
    await db.schema
      .createIndex("webhook_deliveries_due")
      .on("webhook_deliveries")
      .columns(["endpoint_id", "next_attempt_at", "id"])
      .where(sql<boolean>`status = 'pending'`)
      .execute()
  },
})
