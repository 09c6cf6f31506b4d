import type { WorkspaceId } from "./ids.ts"

// The types of `model/workspace-branding.ts`, written out (docs/decisions.md, "Public types").

/** A workspace's branding as the API returns it; a part never set is null. */
export interface WorkspaceBranding {
  readonly display_name: string | null
  readonly logo_url: string | null
  /** Lower case `#rrggbb`. */
  readonly accent_color: string | null
}

/** A change of the branding: a field left out is kept, null removes it. */
export interface WorkspaceBrandingUpdate {
  readonly display_name?: string | null
  readonly logo_url?: string | null
  readonly accent_color?: string | null
}

/** What an embedder passes to `workspaceBranding.update`: the update's encoded form. */
export interface WorkspaceBrandingUpdateBody {
  readonly display_name?: string | null
  readonly logo_url?: string | null
  readonly accent_color?: string | null
}

export interface WorkspaceBrandingRecord {
  readonly workspace_id: WorkspaceId
  readonly display_name: string | null
  readonly logo_url: string | null
  readonly accent_color: string | null
  readonly created_at: string
  readonly updated_at: string
}
