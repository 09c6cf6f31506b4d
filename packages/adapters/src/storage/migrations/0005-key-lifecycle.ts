import type { Kysely, Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers } from "./column-helpers.ts"

/**
 * The lifecycle of API keys: when a key was revoked, and when its secret was last rotated, with
 * the hash of the secret before and until when that one still works. All null for the keys that
 * exist already: they are live and were never rotated.
 */
export const keyLifecycleSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { textType } = columnHelpers(dialect)
    for (const column of ["revoked_at", "rotated_at", "previous_secret_hash", "previous_secret_expires_at"]) {
      await db.schema.alterTable("api_keys").addColumn(column, textType).execute()
    }
  },
})
