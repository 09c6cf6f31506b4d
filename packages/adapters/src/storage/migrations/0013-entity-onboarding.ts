import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createIndex, createTable } from "./column-helpers.ts"

/**
 * Entity onboarding: one row per entity with its business details (addresses and identifiers
 * included) as JSON text, and one row per person with its fields as JSON text, where a tax id is
 * sealed (never the number itself) beside its last four characters. Reads go by workspace and
 * entity; a person is removed when deleted.
 */
export const entityOnboardingSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text, optionalText } = columnHelpers(dialect)
    await createTable(db, "entity_onboardings", {
      id: key,
      workspace_id: text,
      company_id: text,
      entity_id: text,
      status: text,
      submitted_at: optionalText,
      approved_at: optionalText,
      primary_contact_email: optionalText,
      primary_contact_mobile: optionalText,
      primary_contact_mobile_country_code: optionalText,
      business_details: text,
      created_at: text,
      updated_at: text,
    })
    await createIndex(db, "entity_onboardings_by_entity", "entity_onboardings", ["entity_id"], { unique: true })
    await createTable(db, "onboarding_persons", {
      id: key,
      workspace_id: text,
      company_id: text,
      entity_id: text,
      details: text,
      created_at: text,
      updated_at: text,
    })
    await createIndex(db, "onboarding_persons_by_entity", "onboarding_persons", ["entity_id", "id"])
  },
})
