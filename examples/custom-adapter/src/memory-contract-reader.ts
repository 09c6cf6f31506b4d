import type { ContractReader, StampedResource, StoredStamps } from "@payments-engine/contract-tests"
import type { MemoryStorage } from "./memory-storage.ts"
import type { Tables } from "./memory-tables.ts"

interface StampedRow {
  readonly created_at: string
  readonly updated_at?: string
  readonly deleted_at?: string | null
}

/** The timestamp columns of a row; resources without `updated_at` or `deleted_at` answer null. */
const stampsOfRow = (row: StampedRow | undefined): StoredStamps | undefined =>
  row && { created_at: row.created_at, updated_at: row.updated_at ?? null, deleted_at: row.deleted_at ?? null }

/** The table of a resource the suite reads stamps of. */
const stampedTable = (t: Tables, resource: StampedResource): ReadonlyMap<string, StampedRow> => {
  switch (resource) {
    case "workspace":
      return t.workspaces
    case "company":
      return t.companies
    case "entity":
      return t.entities
    case "recipient":
      return t.recipients
    case "bank_account":
      return t.bankAccounts
    case "payment_profile":
      return t.paymentProfiles
    case "quote":
      return t.quotes
    case "payment":
      return t.payments
    case "feature":
      return t.features
    case "event":
      return t.events
    case "onboarding":
      return t.onboardings
    case "person":
      return t.onboardingPersons
    case "attachment":
      return t.onboardingAttachments
    case "job":
      return t.jobs
  }
}

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
  // The suite names a row by resource and id text: any table is a map from text for this read.
  stampsOf: async (resource, id) => stampsOfRow(stampedTable(storage.committed(), resource).get(id)),
})
