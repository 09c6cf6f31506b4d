import type { PaymentRecord, PaymentRepository, PaymentStatusChange, PaymentStatusValue } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { memoryPaymentProfileRepository } from "./bank-accounts.ts"
import { byId, findScoped, freeze, windowOf } from "./rows.ts"

/**
 * Payments over one transaction's tables. Transactions run one at a time, so the uniqueness
 * checks of `insertIfNew` and the compare of `compareAndSetStatus` need no lock. `listStuck`
 * filters and sorts every payment: fine for an example, where a database would use an index.
 */
export const memoryPaymentRepository = (
  t: Pick<Tables, "payments" | "companies" | "quotes" | "paymentProfiles" | "bankAccounts" | "entities" | "recipients">,
): PaymentRepository => {
  const setStatus = (row: PaymentRecord, to: PaymentStatusValue, change: PaymentStatusChange) => {
    const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined))
    const next = freeze({ ...row, ...defined, status: to })
    t.payments.set(row.id, next)
    return next
  }
  return {
    insertIfNew: async (row) => {
      for (const p of t.payments.values()) {
        if (
          p.quote_id === row.quote_id ||
          (p.company_id === row.company_id && p.idempotency_key === row.idempotency_key)
        ) {
          return "conflict"
        }
      }
      t.payments.set(row.id, freeze(row))
      return "inserted"
    },
    anyFromProfiles: async (companyId, fromProfileIds, statuses) =>
      [...t.payments.values()].some(
        (p) => p.company_id === companyId && fromProfileIds.includes(p.from_profile_id) && statuses.includes(p.status),
      ),
    find: async (companyId, id) => findScoped(t.payments, id, (row) => row.company_id === companyId),
    findById: async (id) => t.payments.get(id),
    findForExecution: async (id) => {
      const payment = t.payments.get(id)
      if (payment === undefined) return undefined
      const quote = t.quotes.get(payment.quote_id)
      const profileIds = [payment.from_profile_id, payment.to_profile_id]
      return {
        payment,
        quote: quote?.company_id === payment.company_id ? quote : undefined,
        profiles: await memoryPaymentProfileRepository(t).findInUse(payment.company_id, profileIds),
      }
    },
    findByIdempotencyKey: async (companyId, key) =>
      [...t.payments.values()].find((p) => p.company_id === companyId && p.idempotency_key === key),
    list: async (companyId, filter, window) =>
      windowOf(
        t.payments.values(),
        (p) =>
          p.company_id === companyId &&
          (filter.status === undefined || p.status === filter.status) &&
          (filter.payment_batch_id === undefined || p.payment_batch_id === filter.payment_batch_id),
        window,
      ),
    compareAndSetStatus: async (id, from, to, change, lastUpdate) => {
      const row = t.payments.get(id)
      if (row === undefined || row.status !== from) return undefined
      if (lastUpdate !== undefined && row.updated_at !== lastUpdate) return undefined
      return setStatus(row, to, change)
    },
    compareAndSetStatuses: async (ids, from, to, change) =>
      [...new Set(ids)]
        .flatMap((id) => {
          const row = t.payments.get(id)
          return row === undefined || row.status !== from ? [] : [setStatus(row, to, change)]
        })
        .sort(byId),
    findInBatch: async (batchId, ids) =>
      [...new Set(ids)]
        .flatMap((id) => {
          const row = t.payments.get(id)
          return row === undefined || row.payment_batch_id !== batchId ? [] : [row]
        })
        .sort(byId),
    listInBatch: async (batchId, limit, status) =>
      [...t.payments.values()]
        .filter((p) => p.payment_batch_id === batchId && (status === undefined || p.status === status))
        .sort(byId)
        .slice(0, limit),
    replaceQuote: async (id, from, to, updatedAt) => {
      const row = t.payments.get(id)
      if (row === undefined || row.quote_id !== from || row.status !== "processing") return undefined
      const next = freeze({ ...row, quote_id: to, updated_at: updatedAt })
      t.payments.set(id, next)
      return next
    },
    listStuck: async (before, limit) =>
      [...t.payments.values()]
        .filter((p) => p.status === "processing" && p.updated_at < before)
        .flatMap((p) => {
          const company = t.companies.get(p.company_id)
          return company === undefined ? [] : [{ ...p, workspace_id: company.workspace_id }]
        })
        .sort((a, b) => (a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : byId(a, b)))
        .slice(0, limit),
  }
}
