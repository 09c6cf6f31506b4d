import type { QuoteRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze } from "./rows.ts"

/** Quotes over one transaction's tables, each scoped by its company. */
export const memoryQuoteRepository = (t: Pick<Tables, "quotes">): QuoteRepository => ({
  insert: async (row) => void t.quotes.set(row.id, freeze(row)),
  find: async (companyId, id) => findScoped(t.quotes, id, (row) => row.company_id === companyId),
  findMany: async (companyId, ids) =>
    ids.flatMap((id) => {
      const row = findScoped(t.quotes, id, (q) => q.company_id === companyId)
      return row === undefined ? [] : [row]
    }),
})
