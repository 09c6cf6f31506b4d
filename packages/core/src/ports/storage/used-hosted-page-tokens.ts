import type { UsedHostedPageTokenRecord } from "../../model/types/hosted-page-token.ts"
import type { Awaitable } from "../awaitable.ts"

export type { UsedHostedPageTokenRecord } from "../../model/types/hosted-page-token.ts"

/**
 * Hosted-page tokens whose task is done. A token is marked in the transaction that does its task,
 * so it is used up exactly when the task commits; of two tasks racing on one token, one commits.
 */
export interface UsedHostedPageTokenRepository {
  /**
   * Marks `row.token_id` used. True when it was not used yet; false, writing nothing, when it
   * already was (also by a transaction committed since this one began: a unique key decides).
   */
  markUsed(row: UsedHostedPageTokenRecord): Awaitable<boolean>
  /** Whether `tokenId` is used up. */
  isUsed(tokenId: string): Awaitable<boolean>
  /** Deletes the tokens that expired at or before `now` (refused as expired anyway); how many. */
  purgeExpired(now: string): Awaitable<number>
}
