import {
  type PaymentBatchRecord,
  type PaymentBatchRepository,
  type PaymentBatchStatusValue,
  takeStartSlot,
} from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { PaymentBatchesTable, StorageTables } from "../storage-tables.ts"
import { paymentBatchColumns } from "../table-columns.ts"
import { insertOrRead } from "./insert-or-read.ts"
import { pageOf } from "./paging.ts"
import { scopedFind } from "./scoped-find.ts"

type Db = Kysely<StorageTables>

const toPaymentBatch = (row: Selectable<PaymentBatchesTable>): PaymentBatchRecord => ({
  ...row,
  status: row.status as PaymentBatchStatusValue,
  total_count: Number(row.total_count),
  succeeded_count: Number(row.succeeded_count),
  failed_count: Number(row.failed_count),
  machine_version: Number(row.machine_version),
})

const findBatch = scopedFind("payment_batches", "company_id", paymentBatchColumns, toPaymentBatch)

/** How many times `takeSlot` tries its compare-and-set before it gives up: writers of one batch are few (its lanes). */
const slotAttempts = 50

/**
 * Payment batches over one Kysely handle. Every count changes in one conditional `UPDATE` that
 * reads its outcome from `RETURNING`, so counts hold between concurrent transactions on Postgres.
 *
 * @example
 * declare const batchId: PaymentBatchId
 * const batch = await kyselyPaymentBatchRepository(trx).find(cid, batchId)
 */
export const kyselyPaymentBatchRepository = (db: Db): PaymentBatchRepository => {
  const findById = async (id: PaymentBatchRecord["id"]) => {
    const row = await db.selectFrom("payment_batches").selectAll().where("id", "=", id).executeTakeFirst()
    return row === undefined ? undefined : toPaymentBatch(row)
  }
  return {
    insertOrGet: async (row) => {
      if (row.idempotency_key === null) {
        await db.insertInto("payment_batches").values(row).execute()
        return { inserted: true, batch: row }
      }
      const key = row.idempotency_key
      const outcome = await insertOrRead(
        () =>
          db
            .insertInto("payment_batches")
            .values(row)
            .onConflict((oc) => oc.columns(["company_id", "idempotency_key"]).doNothing())
            .returningAll()
            .executeTakeFirst(),
        async () => {
          const existing = await db
            .selectFrom("payment_batches")
            .selectAll()
            .where("company_id", "=", row.company_id)
            .where("idempotency_key", "=", key)
            .executeTakeFirst()
          return existing === undefined ? undefined : toPaymentBatch(existing)
        },
        `batch with key ${key} of company ${row.company_id} neither inserted nor found`,
      )
      return "inserted" in outcome
        ? { inserted: true, batch: toPaymentBatch(outcome.inserted) }
        : { inserted: false, batch: outcome.existing }
    },
    find: (companyId, id) => findBatch(db, companyId, id),
    findById,
    list: (companyId, filter, window) => {
      let rows = db.selectFrom("payment_batches").where("company_id", "=", companyId)
      if (filter.status !== undefined) rows = rows.where("status", "=", filter.status)
      if (filter.createdFrom !== undefined) rows = rows.where("created_at", ">=", filter.createdFrom)
      if (filter.createdBefore !== undefined) rows = rows.where("created_at", "<", filter.createdBefore)
      return pageOf(rows, window, toPaymentBatch)
    },
    hold: async (id, limit, updatedAt) => {
      const row = await db
        .updateTable("payment_batches")
        .set((eb) => ({ total_count: eb("total_count", "+", 1), updated_at: updatedAt }))
        .where("id", "=", id)
        .where("status", "=", "building")
        .where("total_count", "<", limit)
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toPaymentBatch(row)
    },
    release: async (id, updatedAt) => {
      const row = await db
        .updateTable("payment_batches")
        .set((eb) => ({ total_count: eb("total_count", "-", 1), updated_at: updatedAt }))
        .where("id", "=", id)
        .where("status", "=", "building")
        .where("total_count", ">", 0)
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toPaymentBatch(row)
    },
    recordOutcomes: async (id, outcomes, updatedAt) => {
      const row = await db
        .updateTable("payment_batches")
        .set((eb) => ({
          succeeded_count: eb("succeeded_count", "+", outcomes.succeeded),
          failed_count: eb("failed_count", "+", outcomes.failed),
          updated_at: updatedAt,
        }))
        .where("id", "=", id)
        .where("status", "=", "processing")
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toPaymentBatch(row)
    },
    compareAndSetStatus: async (id, from, to, change) => {
      const row = await db
        .updateTable("payment_batches")
        .set({ ...change, status: to })
        .where("id", "=", id)
        .where("status", "=", from)
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toPaymentBatch(row)
    },
    takeSlot: async (id, now, intervalMs) => {
      for (let attempt = 0; attempt < slotAttempts; attempt += 1) {
        const batch = await findById(id)
        if (batch === undefined) throw new Error(`batch ${id} not found for a start slot`)
        const previous = batch.next_slot_at
        const taken = takeStartSlot(previous === null ? undefined : Date.parse(previous), Date.parse(now), intervalMs)
        const slot = new Date(taken.slot).toISOString()
        const next = new Date(taken.next).toISOString()
        const written = await db
          .updateTable("payment_batches")
          .set({ next_slot_at: next })
          .where("id", "=", id)
          .where((eb) => (previous === null ? eb("next_slot_at", "is", null) : eb("next_slot_at", "=", previous)))
          .executeTakeFirst()
        if (Number(written.numUpdatedRows) === 1) return slot
      }
      throw new Error(`batch ${id}: no start slot after ${slotAttempts} attempts`)
    },
  }
}
