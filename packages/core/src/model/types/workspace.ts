import type { ApiKeyId, WorkspaceId } from "./ids.ts"
import type { ApiKeyScope } from "./session.ts"

// The types of `model/workspace.ts`, written out (docs/decisions.md, "Public types").

/** A workspace as storage keeps it. */
export interface WorkspaceRecord {
  readonly id: WorkspaceId
  readonly name: string
  readonly created_at: string
}

/** An API key as storage keeps it. */
export interface ApiKeyRecord {
  readonly id: ApiKeyId
  readonly workspace_id: WorkspaceId
  /** The public half a client sends as `api_key`. Unique. */
  readonly key: string
  readonly secret_hash: string
  readonly scope: ApiKeyScope
  readonly created_at: string
  /** When the key was revoked; null while it works. A revoked key never works again. */
  readonly revoked_at: string | null
  /** When the secret was last replaced; null for a key never rotated. */
  readonly rotated_at: string | null
  /** The hash of the secret before the last rotation, accepted until `previous_secret_expires_at`. */
  readonly previous_secret_hash: string | null
  readonly previous_secret_expires_at: string | null
}
