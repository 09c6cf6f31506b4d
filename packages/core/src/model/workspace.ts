import { Schema } from "effect"
import { ApiKeyScope } from "./session.ts"

/** A workspace (the tenant) as storage keeps it; `name` is unique. The storage port's `WorkspaceRecord` is its type. */
export const StoredWorkspace = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  created_at: Schema.String,
})

/**
 * An API key as storage keeps it: only the hash of its secret. The storage port's `ApiKeyRecord`
 * is its type.
 */
export const StoredApiKey = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  /** The public half a client sends as `api_key`. Unique. */
  key: Schema.String,
  secret_hash: Schema.String,
  scope: ApiKeyScope,
  created_at: Schema.String,
})
