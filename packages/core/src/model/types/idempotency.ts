import type { WorkspaceId } from "./ids.ts"

// The types of `model/idempotency.ts`, written out (docs/decisions.md, "Public types").

/** An idempotency record as storage keeps it. */
export interface IdempotencyRecord {
  readonly workspace_id: WorkspaceId
  readonly key: string
  /** Hash of method, path and body of the first request. */
  readonly fingerprint: string
  /** Null while the first request runs. */
  readonly response_status: number | null
  readonly response_body: string | null
  readonly created_at: string
  /** The record is ignored and may be purged from then on. */
  readonly expires_at: string
  /**
   * While the first request runs, other requests wait until then before taking the key over,
   * unless the process that claimed it is known to have stopped (see `owner`).
   */
  readonly locked_until: string | null
  /**
   * The process that runs the request (the storage's `processes.self()`, or an id of its engine),
   * null once none does: a claim whose process stopped is taken over at once.
   */
  readonly owner: string | null
  /**
   * The results of the request's committed transactions, a JSON array written in each of those
   * transactions; replayed in order when a retry takes the key over. Null once the answer is kept.
   */
  readonly journal: string | null
}

/** How long a key is remembered. */
export const idempotencyRetentionMs = 24 * 60 * 60 * 1000

/**
 * How long a first request may run before a retry may take its key over (it is presumed stuck or
 * crashed); at once when the storage knows its process stopped.
 */
export const idempotencyLockMs = 60 * 1000

/** The response to remember for a key. */
export interface StoredResponse {
  readonly status: number
  readonly body: unknown
}

/** What to do with a request that carries an `Idempotency-Key`. */
export type IdempotencyDecision =
  | { readonly kind: "proceed" }
  | { readonly kind: "replay"; readonly response: StoredResponse }
