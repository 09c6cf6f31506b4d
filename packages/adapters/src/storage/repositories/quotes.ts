import type { CompanyId, QuoteId, QuoteRecord, QuoteRepository } from "@payments-engine/core"
import type { Kysely } from "kysely"
import { andThen } from "../awaitable.ts"
import { listOf, listValues, preparedQuery } from "../prepared-query.ts"
import type { StorageTables } from "../storage-tables.ts"
import { quoteColumns } from "../table-columns.ts"
import { scopedFind } from "./scoped-find.ts"

type Db = Kysely<StorageTables>

// Creating a quote and a payment runs these: compiled once (see preparedQuery).
const insertQuote = preparedQuery((db: Db, row: QuoteRecord) => db.insertInto("quotes").values(row))
const findQuotes = preparedQuery((db: Db, p: Record<string, string>) =>
  db
    .selectFrom("quotes")
    .select(quoteColumns)
    .where("company_id", "=", p.companyId as CompanyId)
    .where("id", "in", listOf("id", p) as QuoteId[]),
)
const findQuote = scopedFind("quotes", "company_id", quoteColumns, (row) => row as QuoteRecord)

/**
 * Quotes over one Kysely handle, each scoped by its company; a quote is never changed.
 *
 * @example
 * declare const quoteId: QuoteId
 * const quote = await kyselyQuoteRepository(trx).find(cid, quoteId)
 */
export const kyselyQuoteRepository = (db: Db): QuoteRepository => ({
  insert: (row) => andThen(insertQuote(db, row), () => undefined),
  find: (companyId, id) => findQuote(db, companyId, id),
  findMany: async (companyId, ids) =>
    ids.length === 0 ? [] : ((await findQuotes(db, { companyId, ...listValues("id", ids) })) as QuoteRecord[]),
})
