import { WorkspaceBranding, WorkspaceBrandingUpdate } from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Workspace"

/**
 * Rows of the workspace's branding of its hosted pages: the caller's workspace is the token's, so
 * the path names no id. PATCH as the onboarding's: a field left out is kept, null removes it.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...workspaceBrandingRoutes] })
 */
export const workspaceBrandingRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/workspace/branding",
    operationId: "getWorkspaceBranding",
    summary: "The display name, logo URL and accent colour the hosted pages show; null where none is set",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: WorkspaceBranding },
    status: 200,
    errors: [401],
    handle: ({ engine, actor }) => engine.workspaceBranding.get(actor),
  },
  {
    method: "PATCH",
    path: "/api/v1/workspace/branding",
    operationId: "updateWorkspaceBranding",
    summary:
      "Change the hosted pages' display name (1 to 100 characters), logo URL (https) and accent colour (#rrggbb); a field left out is kept, null removes it",
    tag,
    auth: "bearer",
    request: WorkspaceBrandingUpdate,
    response: { kind: "data", schema: WorkspaceBranding },
    status: 200,
    errors: [400, 401, 403, 413, 415, 422],
    handle: ({ engine, actor, body }) => engine.workspaceBranding.update(actor, body),
  },
]
