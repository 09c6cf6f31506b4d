import { Effect } from "effect"
import type { Forbidden, Invalid } from "../../errors.ts"
import {
  toWorkspaceBranding,
  type WorkspaceBranding,
  WorkspaceBrandingUpdate,
  type WorkspaceBrandingUpdateBody,
} from "../../model/workspace-branding.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead } from "../steps/transaction.ts"
import { inWorkspace, writeAccess } from "../steps/use-case.ts"

/**
 * A workspace's branding of its hosted pages (DECISIONS "Hosted pages"): the display name, logo
 * URL and accent colour every page shows. One per workspace, changed field by field.
 */
export const makeWorkspaceBranding = (ports: ServicePorts) => ({
  /**
   * Changes the actor's workspace's branding (write scope): a field left out is kept, null
   * removes it. The display name is trimmed (1 to 100 characters), the logo URL must be https
   * (at most 2048 characters), the accent colour `#rrggbb` (stored in lower case). Every invalid
   * field fails at once as `invalid`, by field.
   *
   * @example
   * const branding = await engine.workspaceBranding.update(actor, { display_name: "Initech", accent_color: "#0B5FFF" })
   * // { display_name: "Initech", logo_url: null, accent_color: "#0b5fff" }
   */
  update: (actor: Actor, body: WorkspaceBrandingUpdateBody): Effect.Effect<WorkspaceBranding, Invalid | Forbidden> =>
    Effect.gen(function* () {
      const input = yield* decodeBody(WorkspaceBrandingUpdate, body)
      return yield* inWorkspace(ports, actor, ({ tx, readClock }) =>
        Effect.gen(function* () {
          const now = (yield* readClock).now().toISOString()
          const current = toWorkspaceBranding(yield* tx.workspaceBrandings.find(actor.workspaceId))
          const row = yield* tx.workspaceBrandings.upsert({
            workspace_id: actor.workspaceId,
            display_name:
              input.display_name === undefined ? current.display_name : (input.display_name?.trim() ?? null),
            logo_url: input.logo_url === undefined ? current.logo_url : input.logo_url,
            accent_color:
              input.accent_color === undefined ? current.accent_color : (input.accent_color?.toLowerCase() ?? null),
            created_at: now,
            updated_at: now,
          })
          return toWorkspaceBranding(row)
        }),
      )
    }).pipe(writeAccess(actor)),

  /**
   * The actor's workspace's branding; every field null when it has none.
   *
   * @example
   * const { display_name } = await engine.workspaceBranding.get(actor)
   */
  get: (actor: Actor): Effect.Effect<WorkspaceBranding> =>
    inRead(ports.storage, (tx) => tx.workspaceBrandings.find(actor.workspaceId).pipe(Effect.map(toWorkspaceBranding))),
})

export type WorkspaceBrandingUseCases = ReturnType<typeof makeWorkspaceBranding>
