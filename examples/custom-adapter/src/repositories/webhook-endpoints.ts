import type { WebhookEndpointRecord, WebhookEndpointRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { byId, findScoped, freeze, isLive, windowOf } from "./rows.ts"

/**
 * Webhook endpoints over one transaction's tables: found by workspace, listed by company, only
 * live ones. Transactions run one at a time, so a toggle is a read and a write.
 */
export const memoryWebhookEndpointRepository = (t: Pick<Tables, "webhookEndpoints">): WebhookEndpointRepository => {
  const find = (workspaceId: WebhookEndpointRecord["workspace_id"], id: WebhookEndpointRecord["id"]) =>
    findScoped(t.webhookEndpoints, id, (row) => row.workspace_id === workspaceId && isLive(row))
  /** The live endpoint after `change`, stored; undefined when there is none. */
  const change = (
    workspaceId: WebhookEndpointRecord["workspace_id"],
    id: WebhookEndpointRecord["id"],
    next: (row: WebhookEndpointRecord) => Partial<WebhookEndpointRecord>,
  ) => {
    const row = find(workspaceId, id)
    if (row === undefined) return undefined
    const changed = freeze({ ...row, ...next(row) })
    t.webhookEndpoints.set(id, changed)
    return changed
  }
  return {
    insert: async (row) => {
      t.webhookEndpoints.set(row.id, freeze(row))
    },
    find: async (workspaceId, id) => find(workspaceId, id),
    listActive: async (companyId) =>
      [...t.webhookEndpoints.values()]
        .filter((row) => row.company_id === companyId && isLive(row) && row.active)
        .sort(byId),
    list: async (companyId, filter, window) =>
      windowOf(
        t.webhookEndpoints.values(),
        (row) =>
          row.company_id === companyId && isLive(row) && (filter.active === undefined || row.active === filter.active),
        window,
      ),
    update: async (workspaceId, id, fields) =>
      change(workspaceId, id, () => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))),
    toggle: async (workspaceId, id, updatedAt) =>
      change(workspaceId, id, (row) => ({ active: !row.active, updated_at: updatedAt })),
    replaceSecret: async (workspaceId, id, from, fields) =>
      find(workspaceId, id)?.secret === from ? change(workspaceId, id, () => fields) : undefined,
    recordCircuit: async (workspaceId, id, circuit) => change(workspaceId, id, () => circuit),
    disable: async (workspaceId, id, fields) =>
      find(workspaceId, id)?.active === true
        ? change(workspaceId, id, () => ({ ...fields, active: false }))
        : undefined,
    delete: async (workspaceId, id, deletedAt) =>
      change(workspaceId, id, () => ({ deleted_at: deletedAt, updated_at: deletedAt })) !== undefined,
  }
}
