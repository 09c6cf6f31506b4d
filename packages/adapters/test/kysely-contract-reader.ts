import type { ContractReader, StampedResource, StoredStamps } from "@payments-engine/contract-tests"
import type { PaymentStatusValue } from "@payments-engine/core"
import type { KyselyStorage } from "../src/kysely.ts"

/** Where each resource the suite stamps lives, and which timestamp columns its table has. */
const stampedTables = {
  workspace: { table: "workspaces", key: "id", updated: false, deleted: false },
  company: { table: "companies", key: "id", updated: true, deleted: true },
  entity: { table: "entities", key: "id", updated: true, deleted: true },
  recipient: { table: "recipients", key: "id", updated: true, deleted: true },
  bank_account: { table: "bank_accounts", key: "id", updated: true, deleted: false },
  payment_profile: { table: "payment_profiles", key: "id", updated: true, deleted: false },
  quote: { table: "quotes", key: "id", updated: false, deleted: false },
  payment: { table: "payments", key: "id", updated: true, deleted: false },
  feature: { table: "features", key: "application_id", updated: true, deleted: false },
  event: { table: "events", key: "id", updated: false, deleted: false },
  onboarding: { table: "entity_onboardings", key: "id", updated: true, deleted: false },
  person: { table: "onboarding_persons", key: "id", updated: true, deleted: false },
  attachment: { table: "onboarding_attachments", key: "id", updated: false, deleted: false },
  job: { table: "jobs", key: "id", updated: true, deleted: false },
} as const satisfies Record<StampedResource, { table: string; key: string; updated: boolean; deleted: boolean }>

/**
 * The contract suite's reader for the Kysely storage: plain selects on the storage's own handle,
 * outside the repositories under test, so a repository bug (a `LIKE` lookup, a stamp from the
 * database's clock) cannot hide itself from the check. Call it only between transactions: on
 * SQLite the handle has one connection, which an open transaction holds.
 *
 * @example
 * runContractSuite({ name: "kysely/sqlite", factory: sqlite.factory, reader: kyselyContractReader })
 */
export const kyselyContractReader = (storage: KyselyStorage): ContractReader => {
  const { db } = storage
  return {
    workspaceByName: (name) => db.selectFrom("workspaces").selectAll().where("name", "=", name).executeTakeFirst(),
    paymentOfQuote: async (quoteId) => {
      const row = await db.selectFrom("payments").selectAll().where("quote_id", "=", quoteId).executeTakeFirst()
      return (
        row && {
          ...row,
          status: row.status as PaymentStatusValue,
          // pg hands integers back as numbers, but a driver may not: the record says number.
          machine_version: Number(row.machine_version),
        }
      )
    },
    eventsOfCompany: (companyId) =>
      db.selectFrom("events").selectAll().where("company_id", "=", companyId).orderBy("id").execute(),
    stampsOf: async (resource, id): Promise<StoredStamps | undefined> => {
      const { table, key, updated, deleted } = stampedTables[resource]
      // Each table has its own columns: read them as untyped text, picked by the map above.
      const row = (await db
        .selectFrom(table)
        .selectAll()
        .where(key as never, "=", id as never)
        .executeTakeFirst()) as Record<string, string | null> | undefined
      if (row === undefined) return undefined
      return {
        created_at: row.created_at as string,
        updated_at: updated ? (row.updated_at ?? null) : null,
        deleted_at: deleted ? (row.deleted_at ?? null) : null,
      }
    },
  }
}
