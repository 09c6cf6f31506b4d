import type { Actor } from "./actor.ts"
import type { ApiKeyId, WorkspaceId } from "./ids.ts"
import type { ApiKeyScope } from "./session.ts"
// The types of API keys as the access use cases take and give them (docs/decisions.md, "Public types").

/** A new API key: the secret is shown this once and only its hash is kept. */
export interface IssuedApiKey {
  readonly workspace: string
  readonly workspace_id: WorkspaceId
  readonly api_key: string
  readonly api_secret: string
  readonly scope: ApiKeyScope
}

/** What `createApiKey` needs; `key` and `secret` are generated when absent. */
export interface ApiKeyRequest {
  readonly workspace: string
  readonly scope?: ApiKeyScope
  readonly key?: string
  readonly secret?: string
}

/** The caller a key and secret stand for, and until when a session they open may last. */
export interface AuthenticatedKey extends Actor {
  readonly keyId: ApiKeyId
  /**
   * Set when the secret was a rotated key's previous one: the end of its grace period, which no
   * session it opens may outlive. Null for the current secret.
   */
  readonly endsBy: string | null
}

/** How long a rotated key's previous secret keeps working unless the operator says otherwise: 24 hours. */
export const defaultRotationGraceSeconds = 24 * 60 * 60

/** The longest grace period a rotation accepts: 30 days. A longer one is a second key, not a rotation. */
export const longestRotationGraceSeconds = 30 * 24 * 60 * 60

/** An API key as an operator sees it: never its secret nor anything derived from it. */
export interface ApiKeyListing {
  readonly api_key: string
  readonly workspace: string
  readonly workspace_id: string
  readonly scope: ApiKeyScope
  readonly created_at: string
  readonly revoked_at: string | null
  readonly rotated_at: string | null
  /** Until when the secret before the last rotation still works; null for a key never rotated. */
  readonly previous_secret_expires_at: string | null
}

/** A rotated key: the new secret is shown this once. */
export interface RotatedApiKey extends ApiKeyListing {
  readonly api_secret: string
}

/** What a bearer token claims: checked against the stored key on every use (through a cache). */
export interface TokenClaims {
  readonly workspaceId: WorkspaceId
  readonly keyId: ApiKeyId
  readonly scope: ApiKeyScope
}
