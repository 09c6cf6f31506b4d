import type { PaymentBatchRecord, PaymentBatchRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze, windowOf } from "./rows.ts"

/**
 * Payment batches over one transaction's tables. Transactions run one at a time, so each
 * conditional change of a count or status is a read and a write.
 */
export const memoryPaymentBatchRepository = (t: Pick<Tables, "paymentBatches">): PaymentBatchRepository => {
  /** The batch after `change`, if `applies` to it as it is; undefined otherwise. */
  const update = (
    id: PaymentBatchRecord["id"],
    applies: (row: PaymentBatchRecord) => boolean,
    change: (row: PaymentBatchRecord) => Partial<PaymentBatchRecord>,
  ) => {
    const row = t.paymentBatches.get(id)
    if (row === undefined || !applies(row)) return undefined
    const next = freeze({ ...row, ...change(row) })
    t.paymentBatches.set(id, next)
    return next
  }
  return {
    insertOrGet: async (row) => {
      if (row.idempotency_key !== null) {
        for (const existing of t.paymentBatches.values()) {
          if (existing.company_id === row.company_id && existing.idempotency_key === row.idempotency_key) {
            return { inserted: false, batch: existing }
          }
        }
      }
      const batch = freeze(row)
      t.paymentBatches.set(row.id, batch)
      return { inserted: true, batch }
    },
    find: async (companyId, id) => findScoped(t.paymentBatches, id, (row) => row.company_id === companyId),
    findById: async (id) => t.paymentBatches.get(id),
    list: async (companyId, filter, window) =>
      windowOf(
        t.paymentBatches.values(),
        (b) =>
          b.company_id === companyId &&
          (filter.status === undefined || b.status === filter.status) &&
          (filter.createdFrom === undefined || b.created_at >= filter.createdFrom) &&
          (filter.createdBefore === undefined || b.created_at < filter.createdBefore),
        window,
      ),
    hold: async (id, limit, updatedAt) =>
      update(
        id,
        (b) => b.status === "building" && b.total_count < limit,
        (b) => ({ total_count: b.total_count + 1, updated_at: updatedAt }),
      ),
    release: async (id, updatedAt) =>
      update(
        id,
        (b) => b.status === "building" && b.total_count > 0,
        (b) => ({ total_count: b.total_count - 1, updated_at: updatedAt }),
      ),
    recordOutcomes: async (id, outcomes, updatedAt) =>
      update(
        id,
        (b) => b.status === "processing",
        (b) => ({
          succeeded_count: b.succeeded_count + outcomes.succeeded,
          failed_count: b.failed_count + outcomes.failed,
          updated_at: updatedAt,
        }),
      ),
    compareAndSetStatus: async (id, from, to, change) =>
      update(
        id,
        (b) => b.status === from,
        () => ({ ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)), status: to }),
      ),
    takeSlot: async (id, now, intervalMs) => {
      const row = t.paymentBatches.get(id)
      if (row === undefined) throw new Error(`batch ${id} not found for a start slot`)
      const slot = row.next_slot_at !== null && row.next_slot_at > now ? row.next_slot_at : now
      t.paymentBatches.set(id, freeze({ ...row, next_slot_at: new Date(Date.parse(slot) + intervalMs).toISOString() }))
      return slot
    },
  }
}
