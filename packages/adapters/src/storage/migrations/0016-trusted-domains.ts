import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createTable } from "./column-helpers.ts"

/**
 * Trusted-domain configurations: at most one per workspace (`workspace_id` unique, the target of
 * the upsert that replaces it), its domains as JSON text (normalised patterns).
 */
export const trustedDomainsSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text } = columnHelpers(dialect)
    await createTable(
      db,
      "trusted_domain_configs",
      { id: key, workspace_id: text, domains: text, created_at: text, updated_at: text },
      (table) => table.addUniqueConstraint("trusted_domain_configs_workspace_key", ["workspace_id"]),
    )
  },
})
