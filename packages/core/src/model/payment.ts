import { Schema, Struct } from "effect"
import { PaymentProfile, type PaymentProfileRecord, toPaymentProfile } from "./bank-account.ts"
import { required, Text, Timestamp } from "./fields.ts"
import { CompanyId, idText, PaymentBatchId, PaymentId, PaymentProfileId, QuoteId } from "./ids.ts"
import type * as Types from "./types/payment.ts"
import type { PaymentRecord } from "./types/payment.ts"
import { paymentReasons, paymentStatuses } from "./types/payment.ts"

export * from "./types/payment.ts"

/** Statuses of a payment instruction; `PaymentStatus` and `PaymentStatusValue` are its type. */
export const PaymentStatusSchema = Schema.Literal(...paymentStatuses)

/** A payment's declared purpose. */
export const PaymentReason = Schema.Literal(...paymentReasons)
export type PaymentReason = Types.PaymentReason

const paymentInstructionFields = {
  id: PaymentId,
  idempotency_key: Schema.optional(Schema.NullOr(Schema.String)),
  quote_id: QuoteId,
  instructed_amount: Schema.String,
  instructed_amount_currency: Schema.String,
  reason: PaymentReason,
  status: PaymentStatusSchema,
  credit_note: Schema.optional(Schema.String),
  debit_note: Schema.optional(Schema.String),
  from_profile: PaymentProfile,
  to_profile: PaymentProfile,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link PaymentInstruction}, named so that declarations refer to it instead of copying it. */
export interface PaymentInstructionSchema extends Schema.Struct<typeof paymentInstructionFields> {}
/** A payment instruction. `idempotency_key` is left out of the create response. */
export const PaymentInstruction: PaymentInstructionSchema = Schema.Struct(paymentInstructionFields).annotations({
  identifier: "PaymentInstruction",
})
export type PaymentInstruction = Types.PaymentInstruction

const storedPaymentFields = {
  ...Struct.pick(PaymentInstruction.fields, "id", "quote_id", "instructed_amount", "status"),
  company_id: CompanyId,
  /** One of `paymentReasons` when written; kept as text. */
  reason: Schema.String,
  idempotency_key: Schema.String,
  credit_note: Schema.NullOr(Schema.String),
  debit_note: Schema.NullOr(Schema.String),
  payment_batch_id: Schema.NullOr(PaymentBatchId),
  machine_version: Schema.Number,
  instructed_currency: Schema.String,
  from_profile_id: PaymentProfileId,
  to_profile_id: PaymentProfileId,
  provider_payment_id: Schema.NullOr(Schema.String),
  failure_reason: Schema.NullOr(Schema.String),
  ...Struct.pick(PaymentInstruction.fields, "created_at", "updated_at"),
}

/** The Schema of {@link StoredPayment}, named so that declarations refer to it instead of copying it. */
export interface StoredPaymentSchema extends Schema.Struct<typeof storedPaymentFields> {}
/**
 * A payment as storage keeps it: the wire shape's own fields, with its company, the ids of its
 * profiles (the wire embeds them), notes as null when absent, the batch, the machine version
 * and the provider's outcome. The storage port's `PaymentRecord` is its type.
 */
export const StoredPayment: StoredPaymentSchema = Schema.Struct(storedPaymentFields)

const Note = Text.pipe(Schema.maxLength(140, { message: () => "is too long (maximum is 140 characters)" }))

const paymentFieldsFields = {
  payment_quote_id: required(idText(QuoteId), "Payment quote ID is required"),
  reason: required(
    PaymentReason.annotations({
      message: () => ({ message: "is not a valid reason", override: true }),
    }),
    "Reason is required",
  ),
  idempotency_key: Schema.optional(
    Text.pipe(
      Schema.minLength(1, { message: () => "Idempotency key is required" }),
      Schema.maxLength(255, { message: () => "is too long (maximum is 255 characters)" }),
    ),
  ),
  credit_note: Schema.optional(Note),
  debit_note: Schema.optional(Note),
  payment_batch_id: Schema.optional(Schema.NullOr(idText(PaymentBatchId))),
}

/** The Schema of {@link PaymentFields}, named so that declarations refer to it instead of copying it. */
export interface PaymentFieldsSchema extends Schema.Struct<typeof paymentFieldsFields> {}
/** The fields of `payment_instruction` in `POST /api/v1/companies/{cid}/payments`. */
export const PaymentFields: PaymentFieldsSchema = Schema.Struct(paymentFieldsFields).annotations({
  identifier: "PaymentFields",
})
export type PaymentFields = Types.PaymentFields

const paymentCreateFields = {
  payment_instruction: required(PaymentFields, "Payment instruction is required"),
}

/** The Schema of {@link PaymentCreate}, named so that declarations refer to it instead of copying it. */
export interface PaymentCreateSchema extends Schema.Struct<typeof paymentCreateFields> {}
/** Body of `POST /api/v1/companies/{cid}/payments`. */
export const PaymentCreate: PaymentCreateSchema = Schema.Struct(paymentCreateFields).annotations({
  identifier: "PaymentCreate",
})

const paymentListQueryFields = {
  status: Schema.optional(
    PaymentStatusSchema.annotations({
      description: "only payments in this status",
      message: () => ({ message: "Invalid status", override: true }),
    }),
  ),
  payment_batch_id: Schema.optional(
    PaymentBatchId.annotations({ description: "only payments of this batch", message: () => "must be a string" }),
  ),
}

/** The Schema of {@link PaymentListQuery}, named so that declarations refer to it instead of copying it. */
export interface PaymentListQuerySchema extends Schema.Struct<typeof paymentListQueryFields> {}
/**
 * Filters of `GET /api/v1/companies/{cid}/payments`, decoded from the raw query (a repeated
 * parameter is an array, refused); an unknown status is `missing` on `status` (`Invalid status`).
 *
 * @example
 * Schema.decodeUnknownSync(PaymentListQuery)({ status: "completed" })
 */
export const PaymentListQuery: PaymentListQuerySchema = Schema.Struct(paymentListQueryFields)
export type PaymentListQuery = Types.PaymentListQuery

/**
 * A stored payment as the API returns it; `profiles` must hold its two profiles (a missing one is
 * a broken store, thrown). The create response leaves `idempotency_key` out.
 */
export const toPayment = (
  row: PaymentRecord,
  profiles: ReadonlyArray<PaymentProfileRecord>,
  options: { withIdempotencyKey: boolean },
): PaymentInstruction => {
  const profile = (id: PaymentProfileId) => {
    const found = profiles.find((p) => p.id === id)
    if (!found) throw new Error(`payment ${row.id} refers to missing profile ${id}`)
    return toPaymentProfile(found)
  }
  return {
    id: row.id,
    ...(options.withIdempotencyKey ? { idempotency_key: row.idempotency_key } : {}),
    quote_id: row.quote_id,
    instructed_amount: row.instructed_amount,
    instructed_amount_currency: row.instructed_currency,
    reason: row.reason as PaymentReason,
    status: row.status,
    ...(row.credit_note === null ? {} : { credit_note: row.credit_note }),
    ...(row.debit_note === null ? {} : { debit_note: row.debit_note }),
    from_profile: profile(row.from_profile_id),
    to_profile: profile(row.to_profile_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
