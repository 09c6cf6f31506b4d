import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createIndex, createTable } from "./column-helpers.ts"

/**
 * Onboarding attachments: one row per supporting document of an entity's onboarding, its bytes
 * kept outside the database by the blob store under the row's id. The content type is the one
 * detected from the bytes; the digest is SHA-256 in hex. Reads go by workspace and entity; a row
 * is removed when its attachment is deleted.
 */
export const onboardingAttachmentsSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text, integer } = columnHelpers(dialect)
    await createTable(db, "onboarding_attachments", {
      id: key,
      workspace_id: text,
      company_id: text,
      entity_id: text,
      document_type: text,
      file_name: text,
      content_type: text,
      size_bytes: integer,
      sha256: text,
      created_at: text,
    })
    await createIndex(db, "onboarding_attachments_by_entity", "onboarding_attachments", ["entity_id", "id"])
  },
})
