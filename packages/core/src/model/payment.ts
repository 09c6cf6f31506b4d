import { Schema, Struct } from "effect"
import { PaymentProfile, type PaymentProfileRecord, toPaymentProfile } from "./bank-account.ts"
import { required, Text, Timestamp } from "./fields.ts"
import { CompanyId, idText, PaymentBatchId, PaymentId, PaymentProfileId, QuoteId } from "./ids.ts"

/** Purposes a payment may declare, exactly as the spec lists them. */
export const paymentReasons = [
  "audio_visual_services",
  "bill_payment",
  "business_expenses",
  "construction",
  "donation_charitable_contribution",
  "education_training",
  "freight",
  "goods_purchased",
  "investment_capital",
  "investment_proceeds",
  "living_expenses",
  "loan_credit_repayment",
  "medical_services",
  "pension",
  "professional_business_services",
  "real_estate",
  "taxes",
  "technical_services",
  "transfer_to_own_account",
  "travel",
  "wages_salary",
  "other_services",
] as const

/** Statuses of a payment instruction; the payment machine decides the moves between them. */
export const paymentStatuses = ["pending", "processing", "completed", "failed", "cancelled"] as const

/** A payment's status. */
export type PaymentStatus = (typeof paymentStatuses)[number]

/** Statuses of a payment instruction; `PaymentStatus` and `PaymentStatusValue` are its type. */
export const PaymentStatusSchema = Schema.Literal(...paymentStatuses)

/** A payment's status, as the model's Schema lists them. */
export type PaymentStatusValue = typeof PaymentStatusSchema.Type

/** A payment's declared purpose. */
export const PaymentReason = Schema.Literal(...paymentReasons)
export type PaymentReason = typeof PaymentReason.Type

/** A payment instruction. `idempotency_key` is left out of the create response. */
export const PaymentInstruction = Schema.Struct({
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
}).annotations({ identifier: "PaymentInstruction" })
export type PaymentInstruction = typeof PaymentInstruction.Type

/**
 * A payment as storage keeps it: the wire shape's own fields, with its company, the ids of its
 * profiles (the wire embeds them), notes as null when absent, the batch, the machine version
 * and the provider's outcome. The storage port's `PaymentRecord` is its type.
 */
export const StoredPayment = Schema.Struct({
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
})

/** A stored payment: the type of {@link StoredPayment}. */
export type PaymentRecord = typeof StoredPayment.Type

const Note = Text.pipe(Schema.maxLength(140, { message: () => "is too long (maximum is 140 characters)" }))

/** The fields of `payment_instruction` in `POST /api/v1/companies/{cid}/payments`. */
export const PaymentFields = Schema.Struct({
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
}).annotations({ identifier: "PaymentFields" })
export type PaymentFields = typeof PaymentFields.Type

/** Body of `POST /api/v1/companies/{cid}/payments`. */
export const PaymentCreate = Schema.Struct({
  payment_instruction: required(PaymentFields, "Payment instruction is required"),
}).annotations({ identifier: "PaymentCreate" })

/**
 * Filters of `GET /api/v1/companies/{cid}/payments`, decoded from the raw query (a repeated
 * parameter is an array, refused); an unknown status is `missing` on `status` (`Invalid status`).
 *
 * @example
 * Schema.decodeUnknownSync(PaymentListQuery)({ status: "completed" })
 */
export const PaymentListQuery = Schema.Struct({
  status: Schema.optional(
    PaymentStatusSchema.annotations({
      description: "only payments in this status",
      message: () => ({ message: "Invalid status", override: true }),
    }),
  ),
  payment_batch_id: Schema.optional(
    PaymentBatchId.annotations({ description: "only payments of this batch", message: () => "must be a string" }),
  ),
})
export type PaymentListQuery = typeof PaymentListQuery.Type

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
