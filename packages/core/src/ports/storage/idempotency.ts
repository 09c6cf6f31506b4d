export interface IdempotencyRecord {
  readonly workspace_id: string
  readonly key: string
  /** Hash of method, path and body of the first request. */
  readonly fingerprint: string
  /** Null while the first request runs. */
  readonly response_status: number | null
  readonly response_body: string | null
  readonly created_at: string
  /** The record is ignored and may be purged from then on. */
  readonly expires_at: string
  /** While the first request runs, other requests wait until then before taking the key over. */
  readonly locked_until: string | null
}

export type ClaimResult = { readonly claimed: true } | { readonly claimed: false; readonly existing: IdempotencyRecord }

export interface IdempotencyRepository {
  /**
   * Inserts the record unless one with the same workspace and key exists, which it then returns
   * unchanged. Must hold under concurrency: of two racing claims, one is told `claimed: false`.
   */
  claim(row: IdempotencyRecord): Promise<ClaimResult>
  find(workspaceId: string, key: string): Promise<IdempotencyRecord | undefined>
  /** Replaces the record with the same workspace and key. */
  replace(row: IdempotencyRecord): Promise<void>
  delete(workspaceId: string, key: string): Promise<void>
  /** Deletes records whose `expires_at` is at or before `now`; returns how many. */
  purgeExpired(now: string): Promise<number>
}
