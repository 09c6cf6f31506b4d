import { Schema } from "effect"
import { paymentStatuses } from "../machines/payment-machine.ts"
import { PaymentProfile } from "./bank-account.ts"
import { required, Text, Timestamp } from "./fields.ts"

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

/**
 * Statuses of a payment instruction, from the payment machine's list; the machine's
 * `PaymentStatus` type and the storage port's `PaymentStatusValue` are its type.
 */
export const PaymentStatusSchema = Schema.Literal(...paymentStatuses)

/** A payment instruction. `idempotency_key` is left out of the create response. */
export const PaymentInstruction = Schema.Struct({
  id: Schema.String,
  idempotency_key: Schema.optional(Schema.NullOr(Schema.String)),
  quote_id: Schema.String,
  instructed_amount: Schema.String,
  instructed_amount_currency: Schema.String,
  reason: Schema.Literal(...paymentReasons),
  status: PaymentStatusSchema,
  credit_note: Schema.optional(Schema.String),
  debit_note: Schema.optional(Schema.String),
  from_profile: PaymentProfile,
  to_profile: PaymentProfile,
  created_at: Timestamp,
  updated_at: Timestamp,
}).annotations({ identifier: "PaymentInstruction" })
export type PaymentInstruction = typeof PaymentInstruction.Type

const Note = Text.pipe(Schema.maxLength(140, { message: () => "is too long (maximum is 140 characters)" }))

/** The fields of `payment_instruction` in `POST /api/v1/companies/{cid}/payments`. */
export const PaymentFields = Schema.Struct({
  payment_quote_id: required(Text, "Payment quote ID is required"),
  reason: required(
    Schema.Literal(...paymentReasons).annotations({
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
  payment_batch_id: Schema.optional(Schema.NullOr(Text)),
}).annotations({ identifier: "PaymentFields" })
export type PaymentFields = typeof PaymentFields.Type

/** Body of `POST /api/v1/companies/{cid}/payments`. */
export const PaymentCreate = Schema.Struct({
  payment_instruction: required(PaymentFields, "Payment instruction is required"),
}).annotations({ identifier: "PaymentCreate" })
