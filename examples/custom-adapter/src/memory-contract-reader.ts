import type { ContractReader, StoredStamps } from "@payments-engine/contract-tests"
import type { MemoryStorage } from "./memory-storage.ts"

/** The timestamp columns of a row; resources without `updated_at` or `deleted_at` answer null. */
const stampsOfRow = (
  row: { readonly created_at: string; readonly updated_at?: string; readonly deleted_at?: string | null } | undefined,
): StoredStamps | undefined =>
  row && { created_at: row.created_at, updated_at: row.updated_at ?? null, deleted_at: row.deleted_at ?? null }

/**
 * The contract suite's reader for the memory storage: it looks at the committed tables, never
 * through the repositories under test. Your adapter's reader queries your database directly.
 *
 * @example
 * runContractSuite({ name: "memory", factory: async () => createMemoryStorage(), reader: memoryContractReader })
 */
export const memoryContractReader = (storage: MemoryStorage): ContractReader => ({
  workspaceByName: async (name) => [...storage.committed().workspaces.values()].find((row) => row.name === name),
  paymentOfQuote: async (quoteId) => [...storage.committed().payments.values()].find((p) => p.quote_id === quoteId),
  eventsOfCompany: async (companyId) =>
    [...storage.committed().events.values()]
      .filter((event) => event.company_id === companyId)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  stampsOf: async (resource, id) => {
    const t = storage.committed()
    switch (resource) {
      case "workspace":
        return stampsOfRow(t.workspaces.get(id))
      case "company":
        return stampsOfRow(t.companies.get(id))
      case "entity":
        return stampsOfRow(t.entities.get(id))
      case "recipient":
        return stampsOfRow(t.recipients.get(id))
      case "bank_account":
        return stampsOfRow(t.bankAccounts.get(id))
      case "payment_profile":
        return stampsOfRow(t.paymentProfiles.get(id))
      case "quote":
        return stampsOfRow(t.quotes.get(id))
      case "payment":
        return stampsOfRow(t.payments.get(id))
      case "feature":
        return stampsOfRow(t.features.get(id))
      case "event":
        return stampsOfRow(t.events.get(id))
    }
  },
})
