import type { CompanyId, QuoteId } from "../../model/ids.ts"
import type { QuoteRecord } from "../../model/quote.ts"

export type { QuoteRecord } from "../../model/quote.ts"

export interface QuoteRepository {
  insert(row: QuoteRecord): Promise<void>
  find(companyId: CompanyId, id: QuoteId): Promise<QuoteRecord | undefined>
  /** The company's quotes among `ids`, in any order (a batch lane's quotes, in one query). */
  findMany(companyId: CompanyId, ids: ReadonlyArray<QuoteId>): Promise<ReadonlyArray<QuoteRecord>>
}
