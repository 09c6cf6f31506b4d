import { type Kysely, type Migration, sql } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createIndex, createTable } from "./column-helpers.ts"

/**
 * Webhook operations: an endpoint keeps since when its attempts fail and, once the engine has
 * disabled it, why and when (existing endpoints: none of the three). Recoveries of an endpoint's
 * failed deliveries get a table of their own, read by workspace; their job reads the endpoint's
 * failed deliveries in id order, which a partial index holds apart from the others.
 */
export const webhookOperationsSchema = (dialect: StorageDialect): Migration => ({
  up: async (db: Kysely<unknown>) => {
    const { textType, key, text, optionalText, integer } = columnHelpers(dialect)
    for (const column of ["failing_since", "disabled_reason", "disabled_at"]) {
      await db.schema.alterTable("webhook_endpoints").addColumn(column, textType).execute()
    }
    await createTable(db, "webhook_recoveries", {
      id: key,
      workspace_id: text,
      company_id: text,
      endpoint_id: text,
      status: text,
      since: text,
      until: text,
      deliveries_queued: integer,
      cursor: optionalText,
      created_at: text,
      updated_at: text,
      completed_at: optionalText,
    })
    await createIndex(db, "webhook_recoveries_by_workspace", "webhook_recoveries", ["workspace_id", "id"])
    await db.schema
      .createIndex("webhook_deliveries_failed")
      .on("webhook_deliveries")
      .columns(["endpoint_id", "id"])
      .where(sql<boolean>`status = 'failed'`)
      .execute()
  },
})
