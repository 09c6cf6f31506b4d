import type { WebhookRecoveryRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze } from "./rows.ts"

/** Recoveries, found within their workspace. Transactions run one at a time, so a progress write is a read and a write. */
export const memoryWebhookRecoveryRepository = (t: Pick<Tables, "webhookRecoveries">): WebhookRecoveryRepository => ({
  insert: async (row) => {
    t.webhookRecoveries.set(row.id, freeze(row))
  },
  find: async (workspaceId, id) => findScoped(t.webhookRecoveries, id, (row) => row.workspace_id === workspaceId),
  advance: async (workspaceId, id, from, progress) => {
    const row = findScoped(t.webhookRecoveries, id, (r) => r.workspace_id === workspaceId)
    if (row === undefined || row.status !== from.status || row.cursor !== from.cursor) return undefined
    const next = freeze({ ...row, ...progress })
    t.webhookRecoveries.set(id, next)
    return next
  },
})
