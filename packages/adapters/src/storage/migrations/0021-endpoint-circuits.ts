import { type Kysely, type Migration, sql } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers } from "./column-helpers.ts"

/**
 * Endpoint circuits: an endpoint counts its failed attempts in a row and, while its circuit is
 * open, until when its deliveries wait. Kept in storage so every process of a shared database
 * backs off together; existing endpoints start closed. A workspace's lanes in flight are counted
 * before each lane starts: a partial index holds only deliveries a lane holds.
 */
export const endpointCircuitsSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { textType } = columnHelpers(dialect)
    await db.schema
      .alterTable("webhook_endpoints")
      .addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.alterTable("webhook_endpoints").addColumn("circuit_open_until", textType).execute()
    await db.schema
      .createIndex("webhook_deliveries_in_lanes")
      .on("webhook_deliveries")
      .columns(["workspace_id", "lane_id"])
      .where(sql<boolean>`lane_id is not null`)
      .execute()
  },
})
