import type { EntityRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze, isLive, windowOf } from "./rows.ts"

/**
 * Entities over one transaction's tables. Transactions run one at a time, so "insert unless the
 * company has a live one" needs no lock: nothing can come between the check and the write.
 */
export const memoryEntityRepository = (t: Pick<Tables, "entities">): EntityRepository => ({
  insertIfNoneActive: async (row) => {
    for (const existing of t.entities.values()) {
      if (existing.company_id === row.company_id && isLive(existing)) return false
    }
    t.entities.set(row.id, freeze(row))
    return true
  },
  findActive: async (companyId, id) => findScoped(t.entities, id, (row) => row.company_id === companyId && isLive(row)),
  findActiveById: async (id) => {
    const row = t.entities.get(id)
    return row !== undefined && isLive(row) ? row : undefined
  },
  findActiveOfCompany: async (companyId) =>
    [...t.entities.values()].find((row) => row.company_id === companyId && isLive(row)),
  update: async (row) => {
    const current = t.entities.get(row.id)
    if (current === undefined) return
    // The integration flag is set by `markIntegrationActive` only: a stale row cannot clear it.
    t.entities.set(row.id, freeze({ ...row, payment_integration_active: current.payment_integration_active }))
  },
  markIntegrationActive: async (companyId, id) => {
    const current = t.entities.get(id)
    if (current?.company_id !== companyId || !isLive(current)) return false
    t.entities.set(id, freeze({ ...current, payment_integration_active: true }))
    return true
  },
  listActive: async (companyId, window) =>
    windowOf(t.entities.values(), (row) => isLive(row) && row.company_id === companyId, window),
})
