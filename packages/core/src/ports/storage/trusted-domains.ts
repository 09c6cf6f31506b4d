import type { WorkspaceId } from "../../model/types/ids.ts"
import type { TrustedDomainConfigRecord } from "../../model/types/trusted-domain-config.ts"
import type { Awaitable } from "../awaitable.ts"

export type { TrustedDomainConfigRecord } from "../../model/types/trusted-domain-config.ts"

/**
 * Trusted-domain configurations: at most one per workspace, found and written by workspace only,
 * so another workspace's configuration is never read.
 */
export interface TrustedDomainConfigRepository {
  /** The workspace's configuration, else undefined. */
  find(workspaceId: WorkspaceId): Awaitable<TrustedDomainConfigRecord | undefined>
  /**
   * Writes the workspace's configuration: `row` when it has none, else its `domains` and
   * `updated_at` over the stored one, which keeps its `id` and `created_at`. Atomic: two writes
   * at once, in one process or two, leave one configuration (the later write's domains).
   * Returns the configuration as stored.
   */
  upsert(row: TrustedDomainConfigRecord): Awaitable<TrustedDomainConfigRecord>
}
