import { Schema } from "effect"
import { ApiKeyId, WorkspaceId } from "./ids.ts"
import { ApiKeyScope } from "./session.ts"

/** A workspace (the tenant) as storage keeps it; `name` is unique. The storage port's `WorkspaceRecord` is its type. */
export const StoredWorkspace = Schema.Struct({
  id: WorkspaceId,
  name: Schema.String,
  created_at: Schema.String,
})

/** A stored workspace: the type of {@link StoredWorkspace}. */
export type WorkspaceRecord = typeof StoredWorkspace.Type

/**
 * An API key as storage keeps it: only the hash of its secret. The storage port's `ApiKeyRecord`
 * is its type.
 */
export const StoredApiKey = Schema.Struct({
  id: ApiKeyId,
  workspace_id: WorkspaceId,
  /** The public half a client sends as `api_key`. Unique. */
  key: Schema.String,
  secret_hash: Schema.String,
  scope: ApiKeyScope,
  created_at: Schema.String,
  /** When the key was revoked; null while it works. A revoked key never works again. */
  revoked_at: Schema.NullOr(Schema.String),
  /** When the secret was last replaced; null for a key never rotated. */
  rotated_at: Schema.NullOr(Schema.String),
  /** The hash of the secret before the last rotation, accepted until `previous_secret_expires_at`. */
  previous_secret_hash: Schema.NullOr(Schema.String),
  previous_secret_expires_at: Schema.NullOr(Schema.String),
})

/** A stored API key: the type of {@link StoredApiKey}. */
export type ApiKeyRecord = typeof StoredApiKey.Type
