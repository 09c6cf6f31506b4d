import type { CompanyRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { memoryPaymentProfileRepository } from "./bank-accounts.ts"
import { findScoped, freeze, isLive, windowOf } from "./rows.ts"

/**
 * Companies over one transaction's tables, each scoped by its workspace. Reading one with its
 * quote or profiles is a few lookups here: nothing costs a round trip.
 */
export const memoryCompanyRepository = (
  t: Pick<Tables, "companies" | "quotes" | "paymentProfiles" | "bankAccounts" | "entities" | "recipients">,
): CompanyRepository => ({
  insert: async (row) => {
    if (t.companies.has(row.id)) throw new Error(`duplicate company ${row.id}`)
    t.companies.set(row.id, freeze(row))
  },
  find: async (workspaceId, id) => findScoped(t.companies, id, (row) => row.workspace_id === workspaceId),
  findWithProfilesInUse: async (workspaceId, id, profileIds) => {
    const company = findScoped(t.companies, id, (row) => row.workspace_id === workspaceId)
    if (company === undefined) return undefined
    return { company, profiles: await memoryPaymentProfileRepository(t).findInUse(company.id, profileIds) }
  },
  findWithQuoteInUse: async (workspaceId, id, quoteId) => {
    const company = findScoped(t.companies, id, (row) => row.workspace_id === workspaceId)
    if (company === undefined) return undefined
    const quote = findScoped(t.quotes, quoteId, (row) => row.company_id === company.id)
    const profileIds = quote === undefined ? [] : [quote.from_profile_id, quote.to_profile_id]
    return { company, quote, profiles: await memoryPaymentProfileRepository(t).findInUse(company.id, profileIds) }
  },
  update: async (row) => {
    if (t.companies.has(row.id)) t.companies.set(row.id, freeze(row))
  },
  listActive: async (workspaceId, window) =>
    windowOf(t.companies.values(), (row) => isLive(row) && row.workspace_id === workspaceId, window),
})
