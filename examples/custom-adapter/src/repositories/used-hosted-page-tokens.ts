import type { UsedHostedPageTokenRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { freeze } from "./rows.ts"

/** Used-up hosted-page tokens: transactions run one after another, so a check then a write is atomic. */
export const memoryUsedHostedPageTokenRepository = (
  t: Pick<Tables, "usedHostedPageTokens">,
): UsedHostedPageTokenRepository => ({
  markUsed: async (row) => {
    if (t.usedHostedPageTokens.has(row.token_id)) return false
    t.usedHostedPageTokens.set(row.token_id, freeze({ ...row }))
    return true
  },
  isUsed: async (tokenId) => t.usedHostedPageTokens.has(tokenId),
  purgeExpired: async (now) => {
    let purged = 0
    for (const [tokenId, row] of t.usedHostedPageTokens) {
      if (row.expires_at <= now) {
        t.usedHostedPageTokens.delete(tokenId)
        purged += 1
      }
    }
    return purged
  },
})
