import type {
  WebhookDeliveryChange,
  WebhookDeliveryId,
  WebhookDeliveryRecord,
  WebhookDeliveryRepository,
  WebhookEndpointId,
} from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze, isLive } from "./rows.ts"

/** Newest first, then by id descending: the delivery log's order. */
const newestFirst = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
  a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0

/** Soonest due first, then by id: the order a lane takes deliveries in. */
const soonestDue = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
  a.next_attempt_at !== b.next_attempt_at
    ? (a.next_attempt_at ?? "") < (b.next_attempt_at ?? "")
      ? -1
      : 1
    : a.id < b.id
      ? -1
      : a.id > b.id
        ? 1
        : 0

/** Up to `limit` pending deliveries of the endpoint due by `now`, free or lane `laneId`'s, soonest due first: `listDue`. */
const dueFor = (
  t: Pick<Tables, "webhookDeliveries">,
  endpointId: WebhookEndpointId,
  now: string,
  laneId: WebhookDeliveryId,
  limit: number,
) =>
  [...t.webhookDeliveries.values()]
    .filter(
      (row) =>
        row.endpoint_id === endpointId &&
        row.status === "pending" &&
        row.next_attempt_at !== null &&
        row.next_attempt_at <= now &&
        row.id !== laneId &&
        (row.lane_id === null || row.lane_id === laneId),
    )
    .sort(soonestDue)
    .slice(0, limit)

/** Writes `change` if the delivery still has the status and attempt count of `from`. */
const compareAndSet = (
  t: Pick<Tables, "webhookDeliveries">,
  id: WebhookDeliveryId,
  from: Pick<WebhookDeliveryRecord, "status" | "attempt_count">,
  change: WebhookDeliveryChange,
): WebhookDeliveryRecord | undefined => {
  const row = t.webhookDeliveries.get(id)
  if (row === undefined || row.status !== from.status || row.attempt_count !== from.attempt_count) return undefined
  const next = freeze({ ...row, ...change })
  t.webhookDeliveries.set(id, next)
  return next
}

/**
 * Webhook deliveries over one transaction's tables. Transactions run one at a time, so the
 * uniqueness of endpoint and event, and the compare of `compareAndSet`, need no lock.
 */
export const memoryWebhookDeliveryRepository = (
  t: Pick<Tables, "webhookDeliveries" | "webhookEndpoints">,
): WebhookDeliveryRepository => ({
  insertIfNew: async (row) => {
    for (const d of t.webhookDeliveries.values()) {
      if (d.endpoint_id === row.endpoint_id && d.event_id === row.event_id) return false
    }
    t.webhookDeliveries.set(row.id, freeze(row))
    return true
  },
  findById: async (id) => t.webhookDeliveries.get(id),
  findForLane: async (id) => {
    const delivery = t.webhookDeliveries.get(id)
    if (delivery === undefined) return undefined
    const endpoint = findScoped(
      t.webhookEndpoints,
      delivery.endpoint_id,
      (row) => row.workspace_id === delivery.workspace_id && isLive(row),
    )
    const lanes = new Set(
      [...t.webhookDeliveries.values()]
        .filter((row) => row.workspace_id === delivery.workspace_id && row.status === "pending" && row.lane_id !== null)
        .map((row) => row.lane_id),
    )
    return { delivery, endpoint, workspaceLanes: lanes.size }
  },
  find: async (workspaceId, id) => findScoped(t.webhookDeliveries, id, (row) => row.workspace_id === workspaceId),
  listByEndpoint: async (workspaceId, endpointId, window) => {
    const rows = [...t.webhookDeliveries.values()]
      .filter((row) => row.workspace_id === workspaceId && row.endpoint_id === endpointId)
      .sort(newestFirst)
    return { rows: rows.slice(window.offset, window.offset + window.limit), total: rows.length }
  },
  listDue: async (endpointId, now, laneId, limit) => dueFor(t, endpointId, now, laneId, limit),
  listFailed: async (endpointId, window, afterId, limit) =>
    [...t.webhookDeliveries.values()]
      .filter(
        (row) =>
          row.endpoint_id === endpointId &&
          row.status === "failed" &&
          row.created_at >= window.createdFrom &&
          row.created_at < window.createdBefore &&
          (afterId === null || row.id > afterId),
      )
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit),
  takeLane: async (laneId, endpointId, now, { size, reach }) => {
    const head = t.webhookDeliveries.get(laneId)
    if (head === undefined || head.status !== "pending" || (head.lane_id !== null && head.lane_id !== laneId)) return []
    const others = dueFor(t, endpointId, now, laneId, reach).filter((row, i) => i < size - 1 || row.lane_id === laneId)
    return [head, ...others].map((row) => {
      const taken = freeze({ ...row, lane_id: laneId })
      t.webhookDeliveries.set(row.id, taken)
      return taken
    })
  },
  compareAndSet: async (id, from, change) => compareAndSet(t, id, from, change),
  compareAndSetMany: async (moves) => moves.flatMap(({ id, from, change }) => compareAndSet(t, id, from, change) ?? []),
})
