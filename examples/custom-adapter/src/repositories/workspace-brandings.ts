import type { WorkspaceBrandingRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { freeze } from "./rows.ts"

/** Workspace brandings, one per workspace: an upsert keeps the first creation time. */
export const memoryWorkspaceBrandingRepository = (
  t: Pick<Tables, "workspaceBrandings">,
): WorkspaceBrandingRepository => ({
  find: async (workspaceId) => t.workspaceBrandings.get(workspaceId),
  // Transactions run one after another, so reading then writing cannot lose a racing upsert.
  upsert: async (row) => {
    const stored = t.workspaceBrandings.get(row.workspace_id)
    const next = freeze(stored === undefined ? { ...row } : { ...row, created_at: stored.created_at })
    t.workspaceBrandings.set(row.workspace_id, next)
    return next
  },
})
