import { Effect } from "effect"
import { Unauthenticated } from "../../errors.ts"
import { hostedPageTokenMessages as msg } from "../../model/hosted-page-token.ts"
import { WorkspaceId } from "../../model/ids.ts"
import type { Repositories } from "../../ports/storage/index.ts"
import type { HostedPageClaims } from "../../rules/hosted-page-jwt.ts"
import type { Lifted } from "./transaction.ts"

/**
 * Marks the token of `claims` used up, in the transaction of the task it was issued for, so the
 * token is used up exactly when the task commits. Fails `unauthenticated` on `token` when it
 * already was: the task is then rolled back, and of two racing on one token one commits.
 */
export const useUpHostedPageToken = (
  tx: Lifted<Repositories>,
  claims: HostedPageClaims,
  now: Date,
): Effect.Effect<void, Unauthenticated> =>
  Effect.gen(function* () {
    const first = yield* tx.usedHostedPageTokens.markUsed({
      token_id: claims.tokenId,
      workspace_id: WorkspaceId.make(claims.workspaceId),
      used_at: now.toISOString(),
      expires_at: claims.expiresAt.toISOString(),
    })
    if (!first) return yield* Effect.fail(new Unauthenticated({ field: "token", message: msg.tokenUsedUp }))
  })
