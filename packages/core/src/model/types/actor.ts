import type { ApiKeyId, WorkspaceId } from "./ids.ts"
import type { ApiKeyScope } from "./session.ts"
// Who a use case acts for (docs/decisions.md, "Public types").

/**
 * Who is calling: the workspace every read and write is confined to, and what the caller may do.
 * The HTTP binding makes one from the bearer token; an embedder makes one directly.
 *
 * @example
 * const actor: Actor = { workspaceId: WorkspaceId.make("ws_01J..."), scope: "write" }
 */
export interface Actor {
  readonly workspaceId: WorkspaceId
  readonly scope: ApiKeyScope
  /** The id of the API key the caller authenticated with; absent when an embedder acts directly. */
  readonly keyId?: ApiKeyId
  /**
   * The `Idempotency-Key` this call acts under, claimed by `idempotency.begin` of the same engine:
   * the use case's transactions are journaled with the key, so a retry after a crash does the work
   * once. The HTTP binding sets it; absent for a call without a key.
   */
  readonly idempotencyKey?: string
}
