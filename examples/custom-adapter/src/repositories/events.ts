import type { EventFilter, EventRecord, EventRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { freeze } from "./rows.ts"
import { memoryWebhookEndpointRepository } from "./webhook-endpoints.ts"

/** Newest first by `created_at` (ISO text sorts as time), then by id descending. */
const newestFirst = (a: EventRecord, b: EventRecord) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1

/** Whether the event passes every field `filter` gives. */
const kept = (filter: EventFilter) => (row: EventRecord) =>
  (filter.event === undefined || row.event === filter.event) &&
  (filter.resourceId === undefined || row.resource_id === filter.resourceId) &&
  (filter.createdFrom === undefined || row.created_at >= filter.createdFrom) &&
  (filter.createdBefore === undefined || row.created_at < filter.createdBefore)

/** The event outbox over one transaction's tables: an event commits with the change it reports. */
export const memoryEventRepository = (t: Pick<Tables, "events" | "webhookEndpoints">): EventRepository => ({
  append: async (row) => void t.events.set(row.id, freeze(row)),
  // Nothing here costs a round trip: the append and the endpoints' read are two steps.
  appendListingEndpoints: async (row) => {
    t.events.set(row.id, freeze(row))
    return memoryWebhookEndpointRepository(t).listActive(row.company_id)
  },
  find: async (workspaceId, id) => {
    const row = t.events.get(id)
    return row?.workspace_id === workspaceId ? row : undefined
  },
  list: async (workspaceId, filter, window) => {
    const rows = [...t.events.values()]
      .filter((row) => row.workspace_id === workspaceId)
      .filter(kept(filter))
      .sort(newestFirst)
    return { rows: rows.slice(window.offset, window.offset + window.limit), total: rows.length }
  },
})
