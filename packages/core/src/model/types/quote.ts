import type { PaymentProfileSummary } from "./bank-account.ts"
import type { CompanyId, PaymentProfileId, QuoteId } from "./ids.ts"

// The types of `model/quote.ts`, written out (docs/decisions.md, "Public types").

/** Whether the fee is taken from the amount sent (`net`) or added to it (`gross`). */
export type FeeStrategy = "net" | "gross"

/** A priced, single-use offer to move money between two profiles, valid 15 minutes. */
export interface Quote {
  readonly id: QuoteId
  readonly instructed_amount: string
  readonly instructed_amount_currency: string
  readonly source_amount: string
  readonly source_amount_currency: string
  readonly target_amount: string
  readonly target_amount_currency: string
  readonly currency_pair: string | null
  /** 1 unit of source currency = exchange_rate units of target. */
  readonly exchange_rate: number
  readonly fee: string
  readonly fee_currency: string
  readonly fee_strategy: FeeStrategy
  readonly expires_at: string
  /** YYYY-MM-DD. */
  readonly expected_completion_date: string
  readonly from_profile: PaymentProfileSummary
  readonly to_profile: PaymentProfileSummary
}

/** A quote as storage keeps it. */
export interface QuoteRecord {
  readonly id: QuoteId
  readonly instructed_amount: string
  readonly source_amount: string
  readonly target_amount: string
  readonly currency_pair: string | null
  readonly fee: string
  readonly fee_currency: string
  readonly fee_strategy: FeeStrategy
  readonly expires_at: string
  /** YYYY-MM-DD. */
  readonly expected_completion_date: string
  readonly company_id: CompanyId
  readonly from_profile_id: PaymentProfileId
  readonly to_profile_id: PaymentProfileId
  readonly payment_method: string
  readonly instructed_currency: string
  readonly source_currency: string
  readonly target_currency: string
  /** Decimal string, 1 source unit = rate target units. */
  readonly exchange_rate: string
  readonly created_at: string
}

/** The fields of `quote` in `POST /api/v1/companies/{cid}/quotes`. */
export interface QuoteFields {
  readonly from_profile_id: PaymentProfileId
  readonly to_profile_id: PaymentProfileId
  readonly instructed_amount: {
    readonly amount: number
    readonly currency: string
  }
  readonly fee_strategy?: FeeStrategy
}

/** Body of a quote's create, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface QuoteCreateBody {
  readonly quote: {
    readonly instructed_amount: {
      readonly currency: string
      readonly amount: number
    }
    readonly from_profile_id: string
    readonly to_profile_id: string
    readonly fee_strategy?: FeeStrategy
  }
}

/** How long a quote can be used. */
export const quoteLifetimeMs = 15 * 60 * 1000
