import { Schema, Struct } from "effect"
import { Text, Timestamp } from "./fields.ts"
import { CompanyId, PaymentBatchId } from "./ids.ts"
import type * as Types from "./types/payment-batch.ts"
import type { PaymentBatchRecord } from "./types/payment-batch.ts"
import { batchStatuses } from "./types/payment-batch.ts"

export * from "./types/payment-batch.ts"

/** The spec's messages for batches, and ours where it has none. */
export const batchMessages = {
  notFound: "PaymentBatch not found",
  notBuilding: "Batch is not in building status",
  empty: "Batch has no payment instructions",
  oversized: "Batch exceeds maximum of 500 payments",
  alreadyProcessing: "Batch is already being processed",
  keyTaken: "has already been taken",
  full: "Payment batch has reached the maximum of 500 payments",
  unknownForPayment: "Payment batch not found",
  paymentInRunningBatch: "Payment cannot be cancelled once its batch is processing",
  invalidDate: "invalid date format",
  invalidStatus: "Invalid status",
} as const

/** Statuses of a payment batch; `BatchStatus` and `PaymentBatchStatusValue` are its type. */
export const PaymentBatchStatusSchema = Schema.Literal(...batchStatuses)

/** Limits of `metadata`, as Stripe-class APIs set them: bounded before anything walks it. */
export const metadataLimits = { keys: 50, keyLength: 40, valueLength: 500 } as const

const MetadataValue = Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Null).annotations({
  message: () => "values must be strings, numbers, booleans or null",
})

/**
 * Arbitrary key-value pairs a client keeps on a batch: at most 50 keys of at most 40 characters,
 * each value a string of at most 500 characters, a number, a boolean or null.
 */
export const Metadata = Schema.Record({ key: Schema.String, value: MetadataValue })
  .annotations({ message: () => "must be an object" })
  .pipe(
    Schema.filter((m) => Object.keys(m).length <= metadataLimits.keys, {
      message: () => `must have at most ${metadataLimits.keys} keys`,
    }),
    Schema.filter(
      (m) =>
        Object.entries(m).every(
          ([key, value]) =>
            key.length >= 1 &&
            key.length <= metadataLimits.keyLength &&
            !key.includes("\u0000") &&
            (typeof value !== "string" || (value.length <= metadataLimits.valueLength && !value.includes("\u0000"))),
        ),
      {
        message: () =>
          `keys must be 1 to ${metadataLimits.keyLength} characters and string values at most ${metadataLimits.valueLength}`,
      },
    ),
  )
export type Metadata = Types.Metadata

const paymentBatchFields = {
  id: PaymentBatchId,
  status: PaymentBatchStatusSchema,
  label: Schema.NullOr(Schema.String),
  idempotency_key: Schema.NullOr(Schema.String),
  total_count: Schema.Number,
  succeeded_count: Schema.Number,
  failed_count: Schema.Number,
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  submitted_at: Schema.NullOr(Timestamp),
  completed_at: Schema.NullOr(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link PaymentBatch}, named so that declarations refer to it instead of copying it. */
export interface PaymentBatchSchema extends Schema.Struct<typeof paymentBatchFields> {}
/** A payment batch as the API returns it. */
export const PaymentBatch: PaymentBatchSchema = Schema.Struct(paymentBatchFields).annotations({
  identifier: "PaymentBatch",
})
export type PaymentBatch = Types.PaymentBatch

const storedPaymentBatchFields = {
  ...Struct.omit(PaymentBatch.fields, "metadata"),
  company_id: CompanyId,
  metadata: Schema.String,
  machine_version: Schema.Number,
  next_slot_at: Schema.NullOr(Timestamp),
}

/** The Schema of {@link StoredPaymentBatch}, named so that declarations refer to it instead of copying it. */
export interface StoredPaymentBatchSchema extends Schema.Struct<typeof storedPaymentBatchFields> {}
/**
 * A batch as storage keeps it: the wire fields with its company, metadata as JSON text, the
 * machine version, and `next_slot_at`, the start time the batch's next payment may take (its
 * rate limit, shared by every process through the row). The storage port's `PaymentBatchRecord`
 * is its type.
 */
export const StoredPaymentBatch: StoredPaymentBatchSchema = Schema.Struct(storedPaymentBatchFields)

const paymentBatchFieldsFields = {
  idempotency_key: Schema.optional(
    Text.pipe(
      Schema.minLength(1, { message: () => "can't be blank" }),
      Schema.maxLength(255, { message: () => "is too long (maximum is 255 characters)" }),
    ),
  ),
  label: Schema.optional(
    Text.pipe(Schema.maxLength(255, { message: () => "is too long (maximum is 255 characters)" })),
  ),
  metadata: Schema.optional(Metadata),
}

/** The Schema of {@link PaymentBatchFields}, named so that declarations refer to it instead of copying it. */
export interface PaymentBatchFieldsSchema extends Schema.Struct<typeof paymentBatchFieldsFields> {}
/** The fields of `payment_batch` in `POST /api/v1/companies/{cid}/payment_batches`; all optional. */
export const PaymentBatchFields: PaymentBatchFieldsSchema = Schema.Struct(paymentBatchFieldsFields).annotations({
  identifier: "PaymentBatchFields",
})
export type PaymentBatchFields = Types.PaymentBatchFields

const paymentBatchCreateFields = {
  payment_batch: Schema.optional(PaymentBatchFields),
}

/** The Schema of {@link PaymentBatchCreate}, named so that declarations refer to it instead of copying it. */
export interface PaymentBatchCreateSchema extends Schema.Struct<typeof paymentBatchCreateFields> {}
/** Body of `POST /api/v1/companies/{cid}/payment_batches`; the wrapper may be left out. */
export const PaymentBatchCreate: PaymentBatchCreateSchema = Schema.Struct(paymentBatchCreateFields).annotations({
  identifier: "PaymentBatchCreate",
})

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whether `text` is a `YYYY-MM-DD` date that exists in the calendar. */
export const isCalendarDate = (text: string): boolean => {
  const match = isoDate.exec(text)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

const DateParameter = (description: string) =>
  Schema.String.pipe(Schema.filter(isCalendarDate)).annotations({
    description,
    examples: ["2026-01-31"],
    message: () => ({ message: batchMessages.invalidDate, override: true }),
  })

const paymentBatchListQueryFields = {
  status: Schema.optional(
    PaymentBatchStatusSchema.annotations({
      description: "only batches in this status",
      message: () => ({ message: batchMessages.invalidStatus, override: true }),
    }),
  ),
  from_date: Schema.optional(DateParameter("only batches created on or after this day (UTC)")),
  to_date: Schema.optional(DateParameter("only batches created on or before this day (UTC)")),
}

/** The Schema of {@link PaymentBatchListQuery}, named so that declarations refer to it instead of copying it. */
export interface PaymentBatchListQuerySchema extends Schema.Struct<typeof paymentBatchListQueryFields> {}
/**
 * Filters of `GET /api/v1/companies/{cid}/payment_batches`: status, and the creation dates
 * `from_date` and `to_date`, both inclusive, as UTC days. A wrong one is `missing`.
 */
export const PaymentBatchListQuery: PaymentBatchListQuerySchema = Schema.Struct(paymentBatchListQueryFields)
export type PaymentBatchListQuery = Types.PaymentBatchListQuery

/**
 * The list filter as storage reads it: creation times from the start of `from_date` and before
 * the start of the day after `to_date`.
 */
export const batchCreatedWindow = (query: PaymentBatchListQuery) => {
  const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString()
  return {
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.from_date === undefined ? {} : { createdFrom: `${query.from_date}T00:00:00.000Z` }),
    ...(query.to_date === undefined ? {} : { createdBefore: dayAfter(query.to_date) }),
  }
}

/** A stored batch as the API returns it. */
export const toPaymentBatch = (row: PaymentBatchRecord): PaymentBatch => ({
  id: row.id,
  status: row.status,
  label: row.label,
  idempotency_key: row.idempotency_key,
  total_count: row.total_count,
  succeeded_count: row.succeeded_count,
  failed_count: row.failed_count,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  submitted_at: row.submitted_at,
  completed_at: row.completed_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
})

/**
 * Metadata as stored and compared: JSON with keys in sorted order, so two requests with the same
 * pairs in another order are the same request.
 */
export const canonicalMetadata = (metadata: Metadata | undefined): string =>
  JSON.stringify(Object.fromEntries(Object.entries(metadata ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))
