import type { StoredQuote } from "../../model/quote.ts"

/** A stored quote: the model's `StoredQuote` Schema. */
export type QuoteRecord = typeof StoredQuote.Type

export interface QuoteRepository {
  insert(row: QuoteRecord): Promise<void>
  find(companyId: string, id: string): Promise<QuoteRecord | undefined>
}
