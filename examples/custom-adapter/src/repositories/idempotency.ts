import type { ClaimResult, IdempotencyRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { freeze } from "./rows.ts"

/** The map key of a record: its workspace and key, joined by NUL, which neither an id nor a header value holds. */
const keyOf = (workspaceId: string, key: string) => `${workspaceId}\u0000${key}`

/** Idempotency records over one transaction's tables, by workspace and key. */
export const memoryIdempotencyRepository = (t: Pick<Tables, "idempotency">): IdempotencyRepository => ({
  claim: async (row): Promise<ClaimResult> => {
    const existing = t.idempotency.get(keyOf(row.workspace_id, row.key))
    if (existing) return { claimed: false, existing }
    t.idempotency.set(keyOf(row.workspace_id, row.key), freeze(row))
    return { claimed: true }
  },
  find: async (workspaceId, key) => t.idempotency.get(keyOf(workspaceId, key)),
  replace: async (row) => {
    t.idempotency.set(keyOf(row.workspace_id, row.key), freeze(row))
  },
  replaceIfOwner: async (row, owner) => {
    const existing = t.idempotency.get(keyOf(row.workspace_id, row.key))
    if (existing === undefined || existing.owner !== owner) return false
    t.idempotency.set(keyOf(row.workspace_id, row.key), freeze(row))
    return true
  },
  delete: async (workspaceId, key) => {
    t.idempotency.delete(keyOf(workspaceId, key))
  },
  purgeExpired: async (now) => {
    let purged = 0
    for (const [id, row] of t.idempotency) {
      if (row.expires_at <= now) {
        t.idempotency.delete(id)
        purged += 1
      }
    }
    return purged
  },
})
