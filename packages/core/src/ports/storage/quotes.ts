import type { CompanyId, QuoteId } from "../../model/types/ids.ts"
import type { QuoteRecord } from "../../model/types/quote.ts"
import type { Awaitable } from "../awaitable.ts"

export type { QuoteRecord } from "../../model/types/quote.ts"

export interface QuoteRepository {
  insert(row: QuoteRecord): Awaitable<void>
  find(companyId: CompanyId, id: QuoteId): Awaitable<QuoteRecord | undefined>
  /** The company's quotes among `ids`, in any order (a batch lane's quotes, in one query). */
  findMany(companyId: CompanyId, ids: ReadonlyArray<QuoteId>): Awaitable<ReadonlyArray<QuoteRecord>>
}
