import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createIndex, createTable } from "./column-helpers.ts"

/**
 * Webhook endpoints: one row per endpoint with its subscriptions (JSON text) and its signing
 * secret sealed (never the secret itself); soft-deleted, so a delivery log can still name one.
 * Lists read a company's live endpoints in id order.
 */
export const webhookEndpointsSchema = (dialect: StorageDialect): Migration => ({
  up: async (db) => {
    const { key, text, optionalText, flag } = columnHelpers(dialect)
    await createTable(db, "webhook_endpoints", {
      id: key,
      uuid: text,
      workspace_id: text,
      company_id: text,
      url: text,
      active: flag,
      subscriptions: text,
      secret: text,
      created_at: text,
      updated_at: text,
      deleted_at: optionalText,
    })
    await createIndex(db, "webhook_endpoints_by_company", "webhook_endpoints", ["company_id", "id"], { liveOnly: true })
  },
})
