import type { Kysely, Migration } from "kysely"
import { columnHelpers, type StorageDialect } from "./column-helpers.ts"

/**
 * Endpoint circuits: an endpoint counts its failed attempts in a row and, while its circuit is
 * open, until when its deliveries wait. Kept in storage so every process of a shared database
 * backs off together; existing endpoints start closed.
 */
export const endpointCircuitsSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { textType } = columnHelpers(dialect)
    await db.schema
      .alterTable("webhook_endpoints")
      .addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.alterTable("webhook_endpoints").addColumn("circuit_open_until", textType).execute()
  },
})
