import type { CompanyId, PaymentBatchId, PaymentId, PaymentProfileId, QuoteId, WorkspaceId } from "../../model/ids.ts"
import type { PaymentListQuery, PaymentRecord, PaymentStatusValue } from "../../model/payment.ts"
import type { Slice, Window } from "./list-window.ts"

export type { PaymentRecord, PaymentStatusValue } from "../../model/payment.ts"

/** Changes a status compare-and-set may write along with the status (a cancelled payment leaves its batch). */
export type PaymentStatusChange = Partial<
  Pick<PaymentRecord, "provider_payment_id" | "failure_reason" | "payment_batch_id">
> &
  Pick<PaymentRecord, "updated_at">

/** Filters of a payment list: the model's `PaymentListQuery`, decoded. */
export type PaymentFilter = PaymentListQuery

/** A payment left in `processing`, with the workspace of its company: what `listStuck` finds. */
export type StuckPayment = PaymentRecord & { readonly workspace_id: WorkspaceId }

export interface PaymentRepository {
  /**
   * Inserts unless a payment already uses the quote, or the company already has a payment with
   * the idempotency key; says which. Must hold under concurrency.
   */
  insertIfNew(row: PaymentRecord): Promise<"inserted" | "conflict">
  find(companyId: CompanyId, id: PaymentId): Promise<PaymentRecord | undefined>
  /**
   * Whether a payment of the company draws on one of the profiles `fromProfileIds` (its
   * `from_profile_id`) and is in one of `statuses`; false for empty lists.
   */
  anyFromProfiles(
    companyId: CompanyId,
    fromProfileIds: ReadonlyArray<PaymentProfileId>,
    statuses: ReadonlyArray<PaymentStatusValue>,
  ): Promise<boolean>
  /** For background jobs, which hold only the id. */
  findById(id: PaymentId): Promise<PaymentRecord | undefined>
  findByIdempotencyKey(companyId: CompanyId, key: string): Promise<PaymentRecord | undefined>
  list(companyId: CompanyId, filter: PaymentFilter, window: Window): Promise<Slice<PaymentRecord>>
  /**
   * Moves the payment from `from` to `to` only if it is still in `from` and, when `lastUpdate`
   * is given, its `updated_at` is still exactly `lastUpdate` (nobody wrote it since it was read);
   * the updated row, or undefined when another writer got there first.
   */
  compareAndSetStatus(
    id: PaymentId,
    from: PaymentStatusValue,
    to: PaymentStatusValue,
    change: PaymentStatusChange,
    lastUpdate?: string,
  ): Promise<PaymentRecord | undefined>
  /**
   * Moves each of the payments `ids` that is still in `from` to `to`, writing `change`, in one
   * statement: the moved rows in id order (those another writer moved first are left out).
   */
  compareAndSetStatuses(
    ids: ReadonlyArray<PaymentId>,
    from: PaymentStatusValue,
    to: PaymentStatusValue,
    change: PaymentStatusChange,
  ): Promise<ReadonlyArray<PaymentRecord>>
  /** The payments `ids` that are in the batch, in id order: a batch lane's payments. */
  findInBatch(batchId: PaymentBatchId, ids: ReadonlyArray<PaymentId>): Promise<ReadonlyArray<PaymentRecord>>
  /** Payments of the batch (only those in `status`, when given), in id order, at most `limit`. */
  listInBatch(
    batchId: PaymentBatchId,
    limit: number,
    status?: PaymentStatusValue,
  ): Promise<ReadonlyArray<PaymentRecord>>
  /**
   * Points a payment at a new quote (its old one expired before it ran), if it still has quote
   * `from` and is `processing`: the updated row, else undefined.
   */
  replaceQuote(id: PaymentId, from: QuoteId, to: QuoteId, updatedAt: string): Promise<PaymentRecord | undefined>
  /**
   * Payments of every workspace still `processing` whose `updated_at` is strictly before
   * `before`, least recently updated first (then by id), at most `limit`, each with its
   * company's `workspace_id`: the ones whose provider outcome the engine never learnt.
   */
  listStuck(before: string, limit: number): Promise<ReadonlyArray<StuckPayment>>
}
