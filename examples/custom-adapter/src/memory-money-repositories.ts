import type {
  BankAccountRecord,
  EntityRecord,
  EventRecord,
  JobRequest,
  PaymentProfileRecord,
  PaymentRecord,
  QuoteRecord,
  RecipientRecord,
  Repositories,
  Slice,
  Window,
} from "@payments-engine/core"
import { enqueueInto } from "./memory-job-table.ts"

type MoneyRepositories = Pick<
  Repositories,
  "bankAccounts" | "paymentProfiles" | "quotes" | "payments" | "jobs" | "events"
>

/** The money-movement tables; records are immutable, a write replaces the map entry. */
export interface MoneyTables {
  readonly bankAccounts: Map<string, BankAccountRecord>
  readonly paymentProfiles: Map<string, PaymentProfileRecord>
  readonly quotes: Map<string, QuoteRecord>
  readonly payments: Map<string, PaymentRecord>
  readonly jobs: Map<string, MemoryJob>
  readonly events: Map<string, EventRecord>
}

/** A queued job with what the embedded runner writes back: failed runs, its last error, given up. */
export interface MemoryJob extends JobRequest {
  readonly attempts: number
  readonly last_error: string | null
  readonly given_up: boolean
}

/** The owners of bank accounts, read to tell whether a profile's owner is live. */
export interface OwnerTables {
  readonly entities: ReadonlyMap<string, EntityRecord>
  readonly recipients: ReadonlyMap<string, RecipientRecord>
}

export const emptyMoneyTables = (): MoneyTables => ({
  bankAccounts: new Map(),
  paymentProfiles: new Map(),
  quotes: new Map(),
  payments: new Map(),
  jobs: new Map(),
  events: new Map(),
})

export const copyMoneyTables = (t: MoneyTables): MoneyTables => ({
  bankAccounts: new Map(t.bankAccounts),
  paymentProfiles: new Map(t.paymentProfiles),
  quotes: new Map(t.quotes),
  payments: new Map(t.payments),
  jobs: new Map(t.jobs),
  events: new Map(t.events),
})

const byId = (a: { readonly id: string }, b: { readonly id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
const freeze = <T extends object>(row: T): T => Object.freeze({ ...row })
const windowOf = <T extends { readonly id: string }>(
  rows: Iterable<T>,
  keep: (row: T) => boolean,
  window: Window,
): Slice<T> => {
  const all = [...rows].filter(keep).sort(byId)
  return { rows: all.slice(window.offset, window.offset + window.limit), total: all.length }
}

/** Repositories over one transaction's private copy of the tables. */
export const moneyRepositoriesOver = (t: MoneyTables & OwnerTables): MoneyRepositories => ({
  bankAccounts: {
    insert: async (row) => void t.bankAccounts.set(row.id, freeze(row)),
    find: async (companyId, id) => {
      const row = t.bankAccounts.get(id)
      return row?.company_id === companyId ? row : undefined
    },
    listByCompany: async (companyId, window) =>
      windowOf(t.bankAccounts.values(), (r) => r.company_id === companyId, window),
    listByOwners: async (ownerType, ownerIds) =>
      [...t.bankAccounts.values()]
        .filter((r) => r.owner_type === ownerType && ownerIds.includes(r.owner_id))
        .sort(byId),
  },
  paymentProfiles: {
    insert: async (row) => void t.paymentProfiles.set(row.id, freeze(row)),
    find: async (companyId, id) => {
      const row = t.paymentProfiles.get(id)
      return row?.company_id === companyId ? row : undefined
    },
    findMany: async (companyId, ids) =>
      [...t.paymentProfiles.values()].filter((r) => r.company_id === companyId && ids.includes(r.id)).sort(byId),
    findInUse: async (companyId, ids) =>
      ids.flatMap((id) => {
        const profile = t.paymentProfiles.get(id)
        const account = profile && t.bankAccounts.get(profile.bank_account_id)
        if (profile?.company_id !== companyId || account === undefined) return []
        const owner =
          account.owner_type === "Entity" ? t.entities.get(account.owner_id) : t.recipients.get(account.owner_id)
        const live = owner !== undefined && owner.company_id === companyId && owner.deleted_at === null
        return [
          {
            profile,
            owner_type: account.owner_type,
            owner_id: account.owner_id,
            provider_connection_id: account.provider_connection_id,
            provider_beneficiary_id: account.provider_beneficiary_id,
            owner_live: live,
            integration_active: live && "payment_integration_active" in owner && owner.payment_integration_active,
          },
        ]
      }),
    listByBankAccounts: async (ids) =>
      [...t.paymentProfiles.values()].filter((r) => ids.includes(r.bank_account_id)).sort(byId),
  },
  quotes: {
    insert: async (row) => void t.quotes.set(row.id, freeze(row)),
    find: async (companyId, id) => {
      const row = t.quotes.get(id)
      return row?.company_id === companyId ? row : undefined
    },
  },
  payments: {
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
    find: async (companyId, id) => {
      const row = t.payments.get(id)
      return row?.company_id === companyId ? row : undefined
    },
    findById: async (id) => t.payments.get(id),
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
    compareAndSetStatus: async (id, from, to, change) => {
      const row = t.payments.get(id)
      if (row === undefined || row.status !== from) return undefined
      const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined))
      const next = freeze({ ...row, ...defined, status: to })
      t.payments.set(id, next)
      return next
    },
  },
  jobs: {
    enqueue: async (job) => enqueueInto(t.jobs, job),
    bringForward: async (workspaceId, ms) => {
      for (const job of t.jobs.values()) {
        if (job.workspace_id !== workspaceId || job.given_up) continue
        t.jobs.set(job.id, Object.freeze({ ...job, run_at: new Date(Date.parse(job.run_at) - ms).toISOString() }))
      }
    },
  },
  events: {
    append: async (row) => void t.events.set(row.id, freeze(row)),
  },
})
