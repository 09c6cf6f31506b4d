import type { Kysely, Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createTable } from "./column-helpers.ts"

/**
 * Test clocks of sandbox mode, one row per workspace whose clock was moved: how many
 * milliseconds it runs ahead of the engine's clock (a bigint: a hundred years of moves overflow
 * an integer). Queued jobs name their workspace, so its clock's moves bring them closer.
 */
export const testClocksSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { key, textType } = columnHelpers(dialect)
    await createTable(db, "test_clocks", {
      workspace_id: key,
      offset_ms: (table, name) => table.addColumn(name, "bigint", (c) => c.notNull()),
    })
    await db.schema.alterTable("jobs").addColumn("workspace_id", textType).execute()
  },
})
