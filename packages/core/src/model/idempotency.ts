import { Schema } from "effect"
import { WorkspaceId } from "./ids.ts"

export * from "./types/idempotency.ts"

const storedIdempotencyRecordFields = {
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
  /**
   * While the first request runs, other requests wait until then before taking the key over,
   * unless the process that claimed it is known to have stopped (see `owner`).
   */
  locked_until: Schema.NullOr(Schema.String),
  /**
   * The process that runs the request (the storage's `processes.self()`, or an id of its engine),
   * null once none does: a claim whose process stopped is taken over at once.
   */
  owner: Schema.NullOr(Schema.String),
  /**
   * The results of the request's committed transactions, a JSON array written in each of those
   * transactions; replayed in order when a retry takes the key over. Null once the answer is kept.
   */
  journal: Schema.NullOr(Schema.String),
}

/** The Schema of {@link StoredIdempotencyRecord}, named so that declarations refer to it instead of copying it. */
export interface StoredIdempotencyRecordSchema extends Schema.Struct<typeof storedIdempotencyRecordFields> {}
/**
 * The answer kept for an `Idempotency-Key` of a workspace, as storage keeps it. The storage
 * port's `IdempotencyRecord` is its type.
 */
export const StoredIdempotencyRecord: StoredIdempotencyRecordSchema = Schema.Struct(storedIdempotencyRecordFields)
