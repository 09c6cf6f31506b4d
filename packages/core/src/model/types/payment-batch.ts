import type { CompanyId, PaymentBatchId } from "./ids.ts"

// The types of `model/payment-batch.ts`, written out (docs/decisions.md, "Public types").

/** Statuses of a payment batch; the batch machine decides the moves between them. */
export const batchStatuses = [
  "building",
  "processing",
  "completed",
  "completed_with_failures",
  "failed",
  "expired",
] as const
/** A batch's status. */
export type BatchStatus = (typeof batchStatuses)[number]

/** A batch's status, as the model's Schema lists them. */
export type PaymentBatchStatusValue = BatchStatus

/**
 * Arbitrary key-value pairs a client keeps on a batch: at most 50 keys of at most 40 characters,
 * each value a string of at most 500 characters, a number, a boolean or null.
 */
export interface Metadata {
  readonly [key: string]: string | number | boolean | null
}

/** A payment batch as the API returns it. */
export interface PaymentBatch {
  readonly id: PaymentBatchId
  readonly status: BatchStatus
  readonly label: string | null
  readonly idempotency_key: string | null
  readonly total_count: number
  readonly succeeded_count: number
  readonly failed_count: number
  readonly metadata: {
    readonly [key: string]: unknown
  }
  readonly submitted_at: string | null
  readonly completed_at: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** A batch as storage keeps it. */
export interface PaymentBatchRecord {
  readonly id: PaymentBatchId
  readonly status: BatchStatus
  readonly label: string | null
  readonly idempotency_key: string | null
  readonly total_count: number
  readonly succeeded_count: number
  readonly failed_count: number
  readonly submitted_at: string | null
  readonly completed_at: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly company_id: CompanyId
  readonly metadata: string
  readonly machine_version: number
  readonly next_slot_at: string | null
}

/** The fields of `payment_batch` in `POST /api/v1/companies/{cid}/payment_batches`; all optional. */
export interface PaymentBatchFields {
  readonly idempotency_key?: string
  readonly label?: string
  readonly metadata?: Metadata
}

/** Body of a payment batch's create, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface PaymentBatchCreateBody {
  readonly payment_batch?: PaymentBatchFields
}

/**
 * Filters of `GET /api/v1/companies/{cid}/payment_batches`: status, and the creation dates
 * `from_date` and `to_date`, both inclusive, as UTC days. A wrong one is `missing`.
 */
export interface PaymentBatchListQuery {
  /** Only batches in this status. */
  readonly status?: BatchStatus
  readonly from_date?: string
  readonly to_date?: string
}

/** What creating answers: the batch, and whether this call created it or found it by its key. */
export interface PaymentBatchCreated {
  readonly batch: PaymentBatch
  readonly created: boolean
}
