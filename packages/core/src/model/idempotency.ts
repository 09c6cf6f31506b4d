import { Schema } from "effect"
import { WorkspaceId } from "./ids.ts"

/**
 * The answer kept for an `Idempotency-Key` of a workspace, as storage keeps it. The storage
 * port's `IdempotencyRecord` is its type.
 */
export const StoredIdempotencyRecord = Schema.Struct({
  workspace_id: WorkspaceId,
  key: Schema.String,
  /** Hash of method, path and body of the first request. */
  fingerprint: Schema.String,
  /** Null while the first request runs. */
  response_status: Schema.NullOr(Schema.Number),
  response_body: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  /** The record is ignored and may be purged from then on. */
  expires_at: Schema.String,
  /** While the first request runs, other requests wait until then before taking the key over. */
  locked_until: Schema.NullOr(Schema.String),
})
