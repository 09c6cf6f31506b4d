import type { Kysely, Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers } from "./column-helpers.ts"

/**
 * Job queues: the embedded runner runs one job of a `queue` at a time (the deliveries of one
 * webhook endpoint), so a receiver that never answers holds one slot of its lane, not all.
 */
export const jobQueuesSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { textType } = columnHelpers(dialect)
    await db.schema.alterTable("jobs").addColumn("queue", textType).execute()
  },
})
