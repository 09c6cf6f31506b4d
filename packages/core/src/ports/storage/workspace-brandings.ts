import type { WorkspaceId } from "../../model/types/ids.ts"
import type { WorkspaceBrandingRecord } from "../../model/types/workspace-branding.ts"
import type { Awaitable } from "../awaitable.ts"

export type { WorkspaceBrandingRecord } from "../../model/types/workspace-branding.ts"

/** Workspace brandings: at most one per workspace, found and written by workspace only. */
export interface WorkspaceBrandingRepository {
  /** The workspace's branding, else undefined. */
  find(workspaceId: WorkspaceId): Awaitable<WorkspaceBrandingRecord | undefined>
  /**
   * Writes the workspace's branding: `row` when it has none, else its display name, logo URL,
   * accent colour and `updated_at` over the stored one, which keeps its `created_at`. Atomic: two
   * writes at once leave one branding. Returns the branding as stored.
   */
  upsert(row: WorkspaceBrandingRecord): Awaitable<WorkspaceBrandingRecord>
}
