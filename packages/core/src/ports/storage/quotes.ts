import type { FeeStrategy } from "../../model/quote.ts"

export interface QuoteRecord {
  readonly id: string
  readonly company_id: string
  readonly from_profile_id: string
  readonly to_profile_id: string
  readonly fee_strategy: FeeStrategy
  readonly payment_method: string
  /** Amounts are decimal strings in their currency's minor units. */
  readonly instructed_amount: string
  readonly instructed_currency: string
  readonly source_amount: string
  readonly source_currency: string
  readonly target_amount: string
  readonly target_currency: string
  readonly fee: string
  readonly fee_currency: string
  /** Decimal string, 1 source unit = rate target units. */
  readonly exchange_rate: string
  readonly currency_pair: string | null
  /** YYYY-MM-DD. */
  readonly expected_completion_date: string
  readonly expires_at: string
  readonly created_at: string
}

export interface QuoteRepository {
  insert(row: QuoteRecord): Promise<void>
  find(companyId: string, id: string): Promise<QuoteRecord | undefined>
}
