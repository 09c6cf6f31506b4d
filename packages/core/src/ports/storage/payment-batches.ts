import type { CompanyId, PaymentBatchId } from "../../model/types/ids.ts"
import type { PaymentBatchRecord, PaymentBatchStatusValue } from "../../model/types/payment-batch.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { PaymentBatchRecord, PaymentBatchStatusValue } from "../../model/types/payment-batch.ts"

/** What a list of batches is filtered by: status, and creation times in `[createdFrom, createdBefore)`. */
export interface PaymentBatchFilter {
  readonly status?: PaymentBatchStatusValue
  readonly createdFrom?: string
  readonly createdBefore?: string
}

/** What a status change writes besides the status. */
export type PaymentBatchStatusChange = Partial<
  Pick<PaymentBatchRecord, "submitted_at" | "completed_at" | "next_slot_at">
> &
  Pick<PaymentBatchRecord, "updated_at">

/** How many payments of a batch finished, by outcome, in one write. */
export interface PaymentOutcomeCounts {
  readonly succeeded: number
  readonly failed: number
}

export interface PaymentBatchInsertOutcome {
  readonly inserted: boolean
  /** The new batch, or the one the company already has with that idempotency key. */
  readonly batch: PaymentBatchRecord
}

/**
 * Payment batches, each scoped by its company. Counts change only through the methods below,
 * each one conditional write, so they are exact under any number of concurrent writers.
 */
export interface PaymentBatchRepository {
  /** Inserts the batch, unless the company has a batch with its (non-null) idempotency key: then that one. */
  insertOrGet(row: PaymentBatchRecord): Awaitable<PaymentBatchInsertOutcome>
  find(companyId: CompanyId, id: PaymentBatchId): Awaitable<PaymentBatchRecord | undefined>
  findById(id: PaymentBatchId): Awaitable<PaymentBatchRecord | undefined>
  /** Batches of the company matching `filter`, in id order (the order they were made). */
  list(companyId: CompanyId, filter: PaymentBatchFilter, window: Window): Awaitable<Slice<PaymentBatchRecord>>
  /**
   * Counts one more held payment, if the batch is `building` and holds fewer than `limit`: the
   * batch as it now is, else undefined.
   */
  hold(id: PaymentBatchId, limit: number, updatedAt: string): Awaitable<PaymentBatchRecord | undefined>
  /** Counts one held payment less, if the batch is `building`: the batch as it now is, else undefined. */
  release(id: PaymentBatchId, updatedAt: string): Awaitable<PaymentBatchRecord | undefined>
  /** Counts finished payments of a `processing` batch: the batch as it now is, else undefined. */
  recordOutcomes(
    id: PaymentBatchId,
    outcomes: PaymentOutcomeCounts,
    updatedAt: string,
  ): Awaitable<PaymentBatchRecord | undefined>
  /** Moves the batch from `from` to `to` with `change`, if it is still in `from`: the batch as it now is. */
  compareAndSetStatus(
    id: PaymentBatchId,
    from: PaymentBatchStatusValue,
    to: PaymentBatchStatusValue,
    change: PaymentBatchStatusChange,
  ): Awaitable<PaymentBatchRecord | undefined>
  /**
   * Takes the batch's next start slot: the later of `now` and its `next_slot_at`, which moves
   * `intervalMs` past the slot taken. Two callers never take the same slot. Returns the slot.
   */
  takeSlot(id: PaymentBatchId, now: string, intervalMs: number): Awaitable<string>
}
