import type { Kysely, Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers } from "./column-helpers.ts"

/**
 * Idempotency records name the process running their request (`owner`), so a retry takes over
 * the claim of a process that died at once, and keep the results of the request's committed
 * transactions (`journal`), written in those transactions, for a retry to replay. Records made
 * before have neither: they keep their 60 s lock.
 */
export const idempotencyJournalSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { textType } = columnHelpers(dialect)
    await db.schema.alterTable("idempotency_records").addColumn("owner", textType).execute()
    await db.schema.alterTable("idempotency_records").addColumn("journal", textType).execute()
  },
})
