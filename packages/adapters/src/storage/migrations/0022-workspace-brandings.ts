import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createTable } from "./column-helpers.ts"

/** Workspace brandings of the hosted pages: at most one per workspace (its key), every part optional. */
export const workspaceBrandingsSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text, optionalText } = columnHelpers(dialect)
    await createTable(db, "workspace_brandings", {
      workspace_id: key,
      display_name: optionalText,
      logo_url: optionalText,
      accent_color: optionalText,
      created_at: text,
      updated_at: text,
    })
  },
})
