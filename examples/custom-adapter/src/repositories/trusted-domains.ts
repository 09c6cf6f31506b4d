import type { TrustedDomainConfigRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { freeze } from "./rows.ts"

/** Trusted-domain configurations, one per workspace: an upsert keeps the first id and creation time. */
export const memoryTrustedDomainConfigRepository = (
  t: Pick<Tables, "trustedDomainConfigs">,
): TrustedDomainConfigRepository => ({
  find: async (workspaceId) => t.trustedDomainConfigs.get(workspaceId),
  // Transactions run one after another, so reading then writing cannot lose a racing upsert.
  upsert: async (row) => {
    const stored = t.trustedDomainConfigs.get(row.workspace_id)
    const next = freeze(
      stored === undefined ? { ...row } : { ...stored, domains: row.domains, updated_at: row.updated_at },
    )
    t.trustedDomainConfigs.set(row.workspace_id, next)
    return next
  },
})
