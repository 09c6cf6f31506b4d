import { type Migration, sql } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createIndex, createTable } from "./column-helpers.ts"

/**
 * Payment batches: one row per batch with its exact counts and its rate limit's next start slot,
 * unique per company and business key (a null key is never a duplicate); the payments of a batch
 * are read by batch and status, in id order, through an index of the payments that are in one.
 */
export const paymentBatchesSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text, optionalText, integer } = columnHelpers(dialect)
    await createTable(
      db,
      "payment_batches",
      {
        id: key,
        company_id: text,
        status: text,
        label: optionalText,
        idempotency_key: optionalText,
        total_count: integer,
        succeeded_count: integer,
        failed_count: integer,
        metadata: text,
        machine_version: integer,
        submitted_at: optionalText,
        completed_at: optionalText,
        next_slot_at: optionalText,
        created_at: text,
        updated_at: text,
      },
      (t) => t.addUniqueConstraint("payment_batches_company_idempotency_key", ["company_id", "idempotency_key"]),
    )
    await createIndex(db, "payment_batches_by_company", "payment_batches", ["company_id", "id"])
    // Partial: most payments are in no batch, and an index entry for each would cost every payment's insert.
    await db.schema
      .createIndex("payments_by_batch")
      .on("payments")
      .columns(["payment_batch_id", "status", "id"])
      .where(sql<boolean>`payment_batch_id is not null`)
      .execute()
  },
})
