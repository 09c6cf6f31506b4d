import type { IdempotencyRecord } from "../../model/types/idempotency.ts"
import type { WorkspaceId } from "../../model/types/ids.ts"
import type { Awaitable } from "../awaitable.ts"

export type { IdempotencyRecord } from "../../model/types/idempotency.ts"

export type ClaimResult = { readonly claimed: true } | { readonly claimed: false; readonly existing: IdempotencyRecord }

export interface IdempotencyRepository {
  /**
   * Inserts the record unless one with the same workspace and key exists, which it then returns
   * unchanged. Must hold under concurrency: of two racing claims, one is told `claimed: false`.
   */
  claim(row: IdempotencyRecord): Awaitable<ClaimResult>
  find(workspaceId: WorkspaceId, key: string): Awaitable<IdempotencyRecord | undefined>
  /** Replaces the record with the same workspace and key. */
  replace(row: IdempotencyRecord): Awaitable<void>
  /**
   * Replaces the record with the same workspace and key when its `owner` is still `owner` (null
   * matches null); says whether it did. Must hold under concurrency: of two racing calls that
   * expect the same owner and set another, one is told false.
   */
  replaceIfOwner(row: IdempotencyRecord, owner: string | null): Awaitable<boolean>
  delete(workspaceId: WorkspaceId, key: string): Awaitable<void>
  /** Deletes records whose `expires_at` is at or before `now`; returns how many. */
  purgeExpired(now: string): Awaitable<number>
}
