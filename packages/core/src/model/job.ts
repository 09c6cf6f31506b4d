import { Schema } from "effect"
import { JobId, WorkspaceId } from "./ids.ts"

export * from "./types/job.ts"

const storedJobFields = {
  id: JobId,
  /** A kind of core's job catalogue, e.g. "execute_payment". */
  kind: Schema.String,
  /** The payload as JSON text; the catalogue decodes it with the kind's schema. */
  payload: Schema.String,
  /**
   * When the job is due, by the engine's clock (a workspace's test clock minus its offset);
   * `created_at` when it is due at once.
   */
  run_at: Schema.String,
  /**
   * At most one job with this key waits or runs at a time: enqueueing again while one does adds
   * nothing. Null for no such limit.
   */
  key: Schema.NullOr(Schema.String),
  /**
   * Jobs of one queue run one at a time, whatever the runner's concurrency (the webhook deliveries
   * of one endpoint: a receiver that never answers holds one slot, not all of them); absent or
   * null for none. Graphile-worker's `queue_name`.
   */
  queue: Schema.optional(Schema.NullOr(Schema.String)),
  /** Runs at most, failed ones included; the last failure gives the job up. */
  max_attempts: Schema.Number,
  /** The engine's now when the job was queued. */
  created_at: Schema.String,
  /**
   * The workspace the job works for, whose test clock moves it (`JobRepository.bringForward`);
   * null for the engine's own upkeep (scheduled kinds).
   */
  workspace_id: Schema.NullOr(WorkspaceId),
}

/** The Schema of {@link StoredJob}, named so that declarations refer to it instead of copying it. */
export interface StoredJobSchema extends Schema.Struct<typeof storedJobFields> {}
/**
 * A background job as storage keeps it when the engine queues it in the caller's transaction. The
 * storage port's `JobRequest` is its type.
 */
export const StoredJob: StoredJobSchema = Schema.Struct(storedJobFields)
