import type { PaymentProfile } from "./bank-account.ts"
import type { CompanyId, PaymentBatchId, PaymentId, PaymentProfileId, QuoteId } from "./ids.ts"

// The types of `model/payment.ts`, written out (docs/decisions.md, "Public types").

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

/** A payment's status, as the model's Schema lists them. */
export type PaymentStatusValue = PaymentStatus

/** A payment's declared purpose. */
export type PaymentReason = (typeof paymentReasons)[number]

/** A payment instruction. `idempotency_key` is left out of the create response. */
export interface PaymentInstruction {
  readonly id: PaymentId
  readonly idempotency_key?: string | null
  readonly quote_id: QuoteId
  readonly instructed_amount: string
  readonly instructed_amount_currency: string
  readonly reason: PaymentReason
  readonly status: PaymentStatus
  readonly credit_note?: string
  readonly debit_note?: string
  readonly from_profile: PaymentProfile
  readonly to_profile: PaymentProfile
  readonly created_at: string
  readonly updated_at: string
}

/** A payment as storage keeps it. */
export interface PaymentRecord {
  readonly id: PaymentId
  readonly quote_id: QuoteId
  readonly instructed_amount: string
  readonly status: PaymentStatus
  readonly created_at: string
  readonly updated_at: string
  readonly company_id: CompanyId
  /** One of `paymentReasons` when written; kept as text. */
  readonly reason: string
  readonly idempotency_key: string
  readonly credit_note: string | null
  readonly debit_note: string | null
  readonly payment_batch_id: PaymentBatchId | null
  readonly machine_version: number
  readonly instructed_currency: string
  readonly from_profile_id: PaymentProfileId
  readonly to_profile_id: PaymentProfileId
  readonly provider_payment_id: string | null
  readonly failure_reason: string | null
}

/** The fields of `payment_instruction` in `POST /api/v1/companies/{cid}/payments`. */
export interface PaymentFields {
  readonly payment_quote_id: QuoteId
  readonly reason: PaymentReason
  readonly idempotency_key?: string
  readonly credit_note?: string
  readonly debit_note?: string
  readonly payment_batch_id?: PaymentBatchId | null
}

/** Body of a payment's create, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface PaymentCreateBody {
  readonly payment_instruction: {
    readonly reason: PaymentReason
    readonly payment_quote_id: string
    readonly idempotency_key?: string
    readonly credit_note?: string
    readonly debit_note?: string
    readonly payment_batch_id?: string | null
  }
}

/**
 * Filters of `GET /api/v1/companies/{cid}/payments`, decoded from the raw query (a repeated
 * parameter is an array, refused); an unknown status is `missing` on `status` (`Invalid status`).
 */
export interface PaymentListQuery {
  /** Only payments in this status. */
  readonly status?: PaymentStatus
  /** Only payments of this batch. */
  readonly payment_batch_id?: PaymentBatchId
}

/**
 * How long a payment may stay `processing` after its last update, by the engine's clock, before
 * the engine asks the provider how it ended: well past the last retry of its job and the provider
 * call that retry makes, so no run of the job is still on its way to the provider.
 */
export const unknownOutcomeAfterMs = 10 * 60 * 1000

/** The most payments one run of `settle_unknown_payments` settles: the rest wait a minute. */
export const unknownOutcomesPerRun = 100

/** The result of a create: the payment, and whether this call made it or an earlier call with the key did. */
export interface PaymentCreated {
  readonly payment: PaymentInstruction
  readonly created: boolean
}

/** The `failure_reason` of a payment the provider says it never received. */
export const notReceivedByProvider = "Payment was not received by the provider"
