import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createTable } from "./column-helpers.ts"

/**
 * Used-up hosted-page tokens, by token id (the JWT's `jti`, the primary key that lets one of two
 * racing tasks commit), with the time each expires.
 */
export const usedHostedPageTokensSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text } = columnHelpers(dialect)
    await createTable(db, "used_hosted_page_tokens", {
      token_id: key,
      workspace_id: text,
      used_at: text,
      expires_at: text,
    })
  },
})
