import { Schema } from "effect"
import { ApiKeyId, WorkspaceId } from "./ids.ts"
import { ApiKeyScope } from "./session.ts"

export * from "./types/workspace.ts"

const storedWorkspaceFields = {
  id: WorkspaceId,
  name: Schema.String,
  created_at: Schema.String,
}

/** The Schema of {@link StoredWorkspace}, named so that declarations refer to it instead of copying it. */
export interface StoredWorkspaceSchema extends Schema.Struct<typeof storedWorkspaceFields> {}
/** A workspace (the tenant) as storage keeps it; `name` is unique. The storage port's `WorkspaceRecord` is its type. */
export const StoredWorkspace: StoredWorkspaceSchema = Schema.Struct(storedWorkspaceFields)

const storedApiKeyFields = {
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
}

/** The Schema of {@link StoredApiKey}, named so that declarations refer to it instead of copying it. */
export interface StoredApiKeySchema extends Schema.Struct<typeof storedApiKeyFields> {}
/**
 * An API key as storage keeps it: only the hash of its secret. The storage port's `ApiKeyRecord`
 * is its type.
 */
export const StoredApiKey: StoredApiKeySchema = Schema.Struct(storedApiKeyFields)
