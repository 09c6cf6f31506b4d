import type { RecipientRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze, isLive, windowOf } from "./rows.ts"

/** Recipients over one transaction's tables, each scoped by its company. */
export const memoryRecipientRepository = (t: Pick<Tables, "recipients">): RecipientRepository => ({
  insert: async (row) => {
    if (t.recipients.has(row.id)) throw new Error(`duplicate recipient ${row.id}`)
    t.recipients.set(row.id, freeze(row))
  },
  findActive: async (companyId, id) =>
    findScoped(t.recipients, id, (row) => row.company_id === companyId && isLive(row)),
  update: async (row) => {
    if (t.recipients.has(row.id)) t.recipients.set(row.id, freeze(row))
  },
  listActive: async (companyId, window) =>
    windowOf(t.recipients.values(), (row) => isLive(row) && row.company_id === companyId, window),
})
