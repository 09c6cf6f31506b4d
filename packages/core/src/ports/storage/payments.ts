import type { PaymentStatusSchema } from "../../model/payment.ts"
import type { Slice, Window } from "./index.ts"

/** A payment's status, as the model's Schema lists them. */
export type PaymentStatusValue = typeof PaymentStatusSchema.Type

export interface PaymentRecord {
  readonly id: string
  readonly company_id: string
  readonly quote_id: string
  readonly idempotency_key: string
  readonly reason: string
  readonly credit_note: string | null
  readonly debit_note: string | null
  readonly payment_batch_id: string | null
  readonly status: PaymentStatusValue
  readonly machine_version: number
  readonly instructed_amount: string
  readonly instructed_currency: string
  readonly from_profile_id: string
  readonly to_profile_id: string
  readonly provider_payment_id: string | null
  readonly failure_reason: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** Changes a status compare-and-set may write along with the status. */
export interface PaymentStatusChange {
  readonly provider_payment_id?: string | null
  readonly failure_reason?: string | null
  readonly updated_at: string
}

export interface PaymentFilter {
  readonly status?: PaymentStatusValue
  readonly payment_batch_id?: string
}

export interface PaymentRepository {
  /**
   * Inserts unless a payment already uses the quote, or the company already has a payment with
   * the idempotency key; says which. Must hold under concurrency.
   */
  insertIfNew(row: PaymentRecord): Promise<"inserted" | "conflict">
  find(companyId: string, id: string): Promise<PaymentRecord | undefined>
  /** For background jobs, which hold only the id. */
  findById(id: string): Promise<PaymentRecord | undefined>
  findByIdempotencyKey(companyId: string, key: string): Promise<PaymentRecord | undefined>
  list(companyId: string, filter: PaymentFilter, window: Window): Promise<Slice<PaymentRecord>>
  /**
   * Moves the payment from `from` to `to` only if it is still in `from`; the updated row, or
   * undefined when another writer got there first.
   */
  compareAndSetStatus(
    id: string,
    from: PaymentStatusValue,
    to: PaymentStatusValue,
    change: PaymentStatusChange,
  ): Promise<PaymentRecord | undefined>
}
