import type { CompanyId, QuoteId } from "../../model/ids.ts"
import type { StoredQuote } from "../../model/quote.ts"

/** A stored quote: the model's `StoredQuote` Schema. */
export type QuoteRecord = typeof StoredQuote.Type

export interface QuoteRepository {
  insert(row: QuoteRecord): Promise<void>
  find(companyId: CompanyId, id: QuoteId): Promise<QuoteRecord | undefined>
}
