import { Schema, Struct } from "effect"
import { type PaymentProfileRecord, PaymentProfileSummary, toProfileSummary } from "./bank-account.ts"
import { required, Text, Timestamp } from "./fields.ts"
import { CompanyId, idText, PaymentProfileId, QuoteId } from "./ids.ts"
import type * as Types from "./types/quote.ts"
import type { QuoteRecord } from "./types/quote.ts"

export * from "./types/quote.ts"

/** Whether the fee is taken from the amount sent (`net`) or added to it (`gross`). */
export const FeeStrategy = Schema.Literal("net", "gross")
export type FeeStrategy = Types.FeeStrategy

const quoteFields = {
  id: QuoteId,
  instructed_amount: Schema.String,
  instructed_amount_currency: Schema.String,
  source_amount: Schema.String,
  source_amount_currency: Schema.String,
  target_amount: Schema.String,
  target_amount_currency: Schema.String,
  currency_pair: Schema.NullOr(Schema.String),
  exchange_rate: Schema.Number.annotations({
    description: "1 unit of source currency = exchange_rate units of target",
  }),
  fee: Schema.String,
  fee_currency: Schema.String,
  fee_strategy: FeeStrategy,
  expires_at: Timestamp,
  expected_completion_date: Schema.String.annotations({ description: "YYYY-MM-DD" }),
  from_profile: PaymentProfileSummary,
  to_profile: PaymentProfileSummary,
}

/** The Schema of {@link Quote}, named so that declarations refer to it instead of copying it. */
export interface QuoteSchema extends Schema.Struct<typeof quoteFields> {}
/** A priced, single-use offer to move money between two profiles, valid 15 minutes. */
export const Quote: QuoteSchema = Schema.Struct(quoteFields).annotations({ identifier: "Quote" })
export type Quote = Types.Quote

const storedQuoteFields = {
  ...Struct.pick(
    Quote.fields,
    "id",
    "fee_strategy",
    "instructed_amount",
    "source_amount",
    "target_amount",
    "fee",
    "fee_currency",
    "currency_pair",
    "expected_completion_date",
    "expires_at",
  ),
  company_id: CompanyId,
  from_profile_id: PaymentProfileId,
  to_profile_id: PaymentProfileId,
  payment_method: Schema.String,
  instructed_currency: Schema.String,
  source_currency: Schema.String,
  target_currency: Schema.String,
  /** Decimal string, 1 source unit = rate target units. */
  exchange_rate: Schema.String,
  created_at: Timestamp,
}

/** The Schema of {@link StoredQuote}, named so that declarations refer to it instead of copying it. */
export interface StoredQuoteSchema extends Schema.Struct<typeof storedQuoteFields> {}
/**
 * A quote as storage keeps it: the wire shape's own fields, with its company, the ids of its
 * profiles (the wire embeds them), the payment method it was priced for and the exact rate as
 * decimal text (the wire has a JSON number). Amounts are decimal strings in their currency's
 * minor units. The storage port's `QuoteRecord` is its type.
 */
export const StoredQuote: StoredQuoteSchema = Schema.Struct(storedQuoteFields)

const Amount = Schema.Number.annotations({ message: () => "must be a number" })

const quoteFieldsFields = {
  from_profile_id: required(idText(PaymentProfileId), "From profile ID is required"),
  to_profile_id: required(idText(PaymentProfileId), "To profile ID is required"),
  instructed_amount: required(
    Schema.Struct({
      amount: required(Amount, "Amount is required"),
      currency: required(Text, "Currency is required"),
    }).annotations({ message: () => "must be an object with amount and currency" }),
    "Instructed amount is required",
  ),
  fee_strategy: Schema.optional(
    FeeStrategy.annotations({
      message: () => ({ message: "must be one of: net, gross", override: true }),
    }),
  ),
}

/** The Schema of {@link QuoteFields}, named so that declarations refer to it instead of copying it. */
export interface QuoteFieldsSchema extends Schema.Struct<typeof quoteFieldsFields> {}
/** The fields of `quote` in `POST /api/v1/companies/{cid}/quotes`. */
export const QuoteFields: QuoteFieldsSchema = Schema.Struct(quoteFieldsFields).annotations({
  identifier: "QuoteFields",
})
export type QuoteFields = Types.QuoteFields

const quoteCreateFields = {
  quote: required(QuoteFields, "Quote is required"),
}

/** The Schema of {@link QuoteCreate}, named so that declarations refer to it instead of copying it. */
export interface QuoteCreateSchema extends Schema.Struct<typeof quoteCreateFields> {}
/** Body of `POST /api/v1/companies/{cid}/quotes`. */
export const QuoteCreate: QuoteCreateSchema = Schema.Struct(quoteCreateFields).annotations({
  identifier: "QuoteCreate",
})

/** A stored quote with its two profiles as the API returns it. */
export const toQuote = (row: QuoteRecord, from: PaymentProfileRecord, to: PaymentProfileRecord): Quote => ({
  id: row.id,
  instructed_amount: row.instructed_amount,
  instructed_amount_currency: row.instructed_currency,
  source_amount: row.source_amount,
  source_amount_currency: row.source_currency,
  target_amount: row.target_amount,
  target_amount_currency: row.target_currency,
  currency_pair: row.currency_pair,
  // The wire shape has a JSON number here; the exact rate is kept as text in storage.
  exchange_rate: Number(row.exchange_rate),
  fee: row.fee,
  fee_currency: row.fee_currency,
  fee_strategy: row.fee_strategy,
  expires_at: row.expires_at,
  expected_completion_date: row.expected_completion_date,
  from_profile: toProfileSummary(from),
  to_profile: toProfileSummary(to),
})
