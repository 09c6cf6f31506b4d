import type { TestClockRepository } from "@payments-engine/core"
import { type Kysely, sql } from "kysely"
import type { StorageTables } from "../storage-tables.ts"

type Db = Kysely<StorageTables>

/**
 * Test clocks over one Kysely handle: a missing row is a clock never moved. An advance is one
 * upsert that adds to the stored offset in the database, so two advances at once both count.
 *
 * @example
 * const offset = await kyselyTestClockRepository(trx).advance(workspaceId, 900_000)
 */
export const kyselyTestClockRepository = (db: Db): TestClockRepository => ({
  offsetOf: async (workspaceId) => {
    const row = await db
      .selectFrom("test_clocks")
      .select("offset_ms")
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst()
    return row === undefined ? 0 : Number(row.offset_ms)
  },
  advance: async (workspaceId, ms) => {
    const row = await db
      .insertInto("test_clocks")
      .values({ workspace_id: workspaceId, offset_ms: ms })
      .onConflict((oc) =>
        oc.column("workspace_id").doUpdateSet({ offset_ms: sql`test_clocks.offset_ms + excluded.offset_ms` }),
      )
      .returning("offset_ms")
      .executeTakeFirstOrThrow()
    return Number(row.offset_ms)
  },
})
