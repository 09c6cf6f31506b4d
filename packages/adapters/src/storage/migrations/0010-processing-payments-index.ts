import { type Kysely, type Migration, sql } from "kysely"

/**
 * The payments still `processing`, by their last update: the sweep of unknown outcomes reads the
 * oldest of them every minute, and without an index that read is a scan of every payment ever
 * made. Partial, so the index holds only the payments in flight: a payment enters it when its
 * job starts it and leaves it when it completes or fails.
 */
export const processingPaymentsIndexSchema = (): Migration => ({
  up: async (db: Kysely<unknown>) => {
    await db.schema
      .createIndex("payments_processing_by_update")
      .on("payments")
      .columns(["updated_at", "id"])
      .where(sql<boolean>`status = 'processing'`)
      .execute()
  },
})
