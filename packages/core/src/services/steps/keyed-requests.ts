import { Effect, FiberRef } from "effect"
import type { WorkspaceId } from "../../model/ids.ts"

/**
 * A request that holds an `Idempotency-Key` while its use case runs: which record journals its
 * transactions, the process id that claimed it (the journal is written only while the record
 * still names it), and how many of its transactions have committed or been replayed so far.
 */
export interface KeyedRequest {
  readonly workspaceId: WorkspaceId
  readonly key: string
  readonly owner: string
  /**
   * Seals a journaled result: results hold what answers show once (a webhook secret, a hosted-page
   * token, a tax id), which the database must not keep readable.
   */
  readonly seal: (text: string) => Effect.Effect<string>
  /** Opens a sealed result; undefined when the server secret has rotated since. */
  readonly open: (sealed: string) => Effect.Effect<string | undefined>
  /**
   * One transaction of the request at a time: two at once would both take the same step of the
   * journal. Transactions a use case starts together are journaled in the order they commit.
   */
  readonly oneAtATime: Effect.Semaphore
  step: number
}

/** How a keyed request seals its journal (see {@link KeyedRequest}). */
export type JournalSealing = Pick<KeyedRequest, "seal" | "open">

/**
 * The keyed request the running use case acts for, read by `inTransaction`; none outside a keyed
 * request (job handlers, requests without a key, the idempotency service's own transactions).
 */
export const currentKeyedRequest: FiberRef.FiberRef<KeyedRequest | undefined> = FiberRef.unsafeMake<
  KeyedRequest | undefined
>(undefined)

const mapKey = (workspaceId: WorkspaceId, key: string) => `${workspaceId}\u0000${key}`

/**
 * The keyed requests of one engine, from `idempotency.begin` that claimed the key to its
 * `complete` or `abandon`: a use case called with an actor that names the key finds its request
 * here, so every use case the request calls continues one journal.
 */
export const makeKeyedRequests = () => {
  const open = new Map<string, KeyedRequest>()
  return {
    /** Starts the journal's replay from its first transaction. */
    open: (workspaceId: WorkspaceId, key: string, owner: string, sealing: JournalSealing): void => {
      open.set(mapKey(workspaceId, key), {
        workspaceId,
        key,
        owner,
        ...sealing,
        oneAtATime: Effect.unsafeMakeSemaphore(1),
        step: 0,
      })
    },
    /** The request of a claimed key, or undefined when this engine holds no such claim. */
    of: (workspaceId: WorkspaceId, key: string): KeyedRequest | undefined => open.get(mapKey(workspaceId, key)),
    close: (workspaceId: WorkspaceId, key: string): void => {
      open.delete(mapKey(workspaceId, key))
    },
  }
}

/** The keyed requests of one engine (see {@link makeKeyedRequests}). */
export type KeyedRequests = ReturnType<typeof makeKeyedRequests>
