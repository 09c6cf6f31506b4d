import type { ProfileInUse } from "../../model/types/bank-account.ts"
import type {
  CompanyId,
  PaymentBatchId,
  PaymentId,
  PaymentProfileId,
  QuoteId,
  WorkspaceId,
} from "../../model/types/ids.ts"
import type { PaymentListQuery, PaymentRecord, PaymentStatusValue } from "../../model/types/payment.ts"
import type { QuoteRecord } from "../../model/types/quote.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { PaymentRecord, PaymentStatusValue } from "../../model/types/payment.ts"

/** Changes a status compare-and-set may write along with the status (a cancelled payment leaves its batch). */
export type PaymentStatusChange = Partial<
  Pick<PaymentRecord, "provider_payment_id" | "failure_reason" | "payment_batch_id">
> &
  Pick<PaymentRecord, "updated_at">

/** Filters of a payment list: the model's `PaymentListQuery`, decoded. */
export type PaymentFilter = PaymentListQuery

/** A payment left in `processing`, with the workspace of its company: what `listStuck` finds. */
export type StuckPayment = PaymentRecord & { readonly workspace_id: WorkspaceId }

/** A payment with its quote and profiles: what `findForExecution` finds. */
export interface PaymentForExecution {
  readonly payment: PaymentRecord
  readonly quote: QuoteRecord | undefined
  /** Its two profiles (`from_profile_id`, `to_profile_id`) in its company, as `paymentProfiles.findInUse` reads them. */
  readonly profiles: ReadonlyArray<ProfileInUse>
}

export interface PaymentRepository {
  /**
   * Inserts unless a payment already uses the quote, or the company already has a payment with
   * the idempotency key; says which. Must hold under concurrency.
   */
  insertIfNew(row: PaymentRecord): Awaitable<"inserted" | "conflict">
  find(companyId: CompanyId, id: PaymentId): Awaitable<PaymentRecord | undefined>
  /**
   * Whether a payment of the company draws on one of the profiles `fromProfileIds` (its
   * `from_profile_id`) and is in one of `statuses`; false for empty lists.
   */
  anyFromProfiles(
    companyId: CompanyId,
    fromProfileIds: ReadonlyArray<PaymentProfileId>,
    statuses: ReadonlyArray<PaymentStatusValue>,
  ): Awaitable<boolean>
  /** For background jobs, which hold only the id. */
  findById(id: PaymentId): Awaitable<PaymentRecord | undefined>
  /**
   * For the execution job, which holds only the id: the payment with its quote (undefined when no
   * quote of the payment's company has its `quote_id`) and its profiles in use, read in one go;
   * undefined when there is no such payment.
   */
  findForExecution(id: PaymentId): Awaitable<PaymentForExecution | undefined>
  findByIdempotencyKey(companyId: CompanyId, key: string): Awaitable<PaymentRecord | undefined>
  list(companyId: CompanyId, filter: PaymentFilter, window: Window): Awaitable<Slice<PaymentRecord>>
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
  ): Awaitable<PaymentRecord | undefined>
  /**
   * Moves each of the payments `ids` that is still in `from` to `to`, writing `change`, in one
   * statement: the moved rows in id order (those another writer moved first are left out).
   */
  compareAndSetStatuses(
    ids: ReadonlyArray<PaymentId>,
    from: PaymentStatusValue,
    to: PaymentStatusValue,
    change: PaymentStatusChange,
  ): Awaitable<ReadonlyArray<PaymentRecord>>
  /** The payments `ids` that are in the batch, in id order: a batch lane's payments. */
  findInBatch(batchId: PaymentBatchId, ids: ReadonlyArray<PaymentId>): Awaitable<ReadonlyArray<PaymentRecord>>
  /** Payments of the batch (only those in `status`, when given), in id order, at most `limit`. */
  listInBatch(
    batchId: PaymentBatchId,
    limit: number,
    status?: PaymentStatusValue,
  ): Awaitable<ReadonlyArray<PaymentRecord>>
  /**
   * Points a payment at a new quote (its old one expired before it ran), if it still has quote
   * `from` and is `processing`: the updated row, else undefined.
   */
  replaceQuote(id: PaymentId, from: QuoteId, to: QuoteId, updatedAt: string): Awaitable<PaymentRecord | undefined>
  /**
   * Payments of every workspace still `processing` whose `updated_at` is strictly before
   * `before`, least recently updated first (then by id), at most `limit`, each with its
   * company's `workspace_id`: the ones whose provider outcome the engine never learnt.
   */
  listStuck(before: string, limit: number): Awaitable<ReadonlyArray<StuckPayment>>
}
