import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createIndex, createTable } from "./column-helpers.ts"

/**
 * Webhook deliveries: one row per endpoint and outbox event (unique), with the exact body every
 * attempt sends and the attempts as JSON text. The log reads an endpoint's deliveries newest
 * first; an active endpoint of a company is looked up for every event the company has. Endpoints
 * gain the previous secret of a rotation and when it stops signing.
 */
export const webhookDeliveriesSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text, optionalText, integer, optionalInteger, textType } = columnHelpers(dialect)
    await createTable(db, "webhook_deliveries", {
      id: key,
      workspace_id: text,
      company_id: text,
      endpoint_id: text,
      event_id: text,
      event_name: text,
      payload: text,
      status: text,
      machine_version: integer,
      attempt_count: integer,
      last_status_code: optionalInteger,
      next_attempt_at: optionalText,
      attempts: text,
      created_at: text,
      updated_at: text,
    })
    await createIndex(db, "webhook_deliveries_once", "webhook_deliveries", ["endpoint_id", "event_id"], {
      unique: true,
    })
    await createIndex(db, "webhook_deliveries_by_endpoint", "webhook_deliveries", ["endpoint_id", "created_at", "id"])
    // A rotated-out secret, sealed like the secret, signs beside the new one for a day.
    for (const column of ["previous_secret", "previous_secret_expires_at"]) {
      await db.schema.alterTable("webhook_endpoints").addColumn(column, textType).execute()
    }
  },
})
