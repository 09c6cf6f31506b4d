import type { WebhookDeliveryRecord, WebhookDeliveryRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze } from "./rows.ts"

/** Newest first, then by id descending: the delivery log's order. */
const newestFirst = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
  a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0

/**
 * Webhook deliveries over one transaction's tables. Transactions run one at a time, so the
 * uniqueness of endpoint and event, and the compare of `compareAndSet`, need no lock.
 */
export const memoryWebhookDeliveryRepository = (t: Pick<Tables, "webhookDeliveries">): WebhookDeliveryRepository => ({
  insertIfNew: async (row) => {
    for (const d of t.webhookDeliveries.values()) {
      if (d.endpoint_id === row.endpoint_id && d.event_id === row.event_id) return false
    }
    t.webhookDeliveries.set(row.id, freeze(row))
    return true
  },
  findById: async (id) => t.webhookDeliveries.get(id),
  find: async (workspaceId, id) => findScoped(t.webhookDeliveries, id, (row) => row.workspace_id === workspaceId),
  listByEndpoint: async (workspaceId, endpointId, window) => {
    const rows = [...t.webhookDeliveries.values()]
      .filter((row) => row.workspace_id === workspaceId && row.endpoint_id === endpointId)
      .sort(newestFirst)
    return { rows: rows.slice(window.offset, window.offset + window.limit), total: rows.length }
  },
  compareAndSet: async (id, from, change) => {
    const row = t.webhookDeliveries.get(id)
    if (row === undefined || row.status !== from.status || row.attempt_count !== from.attempt_count) return undefined
    const next = freeze({ ...row, ...change })
    t.webhookDeliveries.set(id, next)
    return next
  },
})
