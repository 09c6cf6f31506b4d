import type { CompanyRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze, isLive, windowOf } from "./rows.ts"

/** Companies over one transaction's tables, each scoped by its workspace. */
export const memoryCompanyRepository = (t: Pick<Tables, "companies">): CompanyRepository => ({
  insert: async (row) => {
    if (t.companies.has(row.id)) throw new Error(`duplicate company ${row.id}`)
    t.companies.set(row.id, freeze(row))
  },
  find: async (workspaceId, id) => findScoped(t.companies, id, (row) => row.workspace_id === workspaceId),
  update: async (row) => {
    if (t.companies.has(row.id)) t.companies.set(row.id, freeze(row))
  },
  listActive: async (workspaceId, window) =>
    windowOf(t.companies.values(), (row) => isLive(row) && row.workspace_id === workspaceId, window),
})
