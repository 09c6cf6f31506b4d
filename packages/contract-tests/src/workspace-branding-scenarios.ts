import type { Actor, Repositories, WorkspaceBrandingRecord } from "@payments-engine/core"
import { expect } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"

const storedBranding = (harness: Harness, actor: Actor): Promise<WorkspaceBrandingRecord | undefined> =>
  harness.storage.transaction((tx: Repositories) => tx.workspaceBrandings.find(actor.workspaceId))

/** Workspace brandings: one per workspace, changed field by field, found by workspace only. */
export const workspaceBrandingScenarios: ScenarioGroup = {
  title: "workspace branding",
  scenarios: [
    {
      id: "workspace-branding.one-per-workspace",
      title:
        "a workspace has no branding until one is written; an upsert replaces its parts and keeps its created_at, a rolled-back one changes nothing; another workspace's branding is never found nor changed",
      run: async (harness) => {
        const { engine, clock } = harness
        const a = await harness.workspace()
        const b = await harness.workspace()
        const none = { display_name: null, logo_url: null, accent_color: null }
        expect(await engine.workspaceBranding.get(a)).toEqual(none)
        expect(await storedBranding(harness, a)).toBeUndefined()

        const first = await engine.workspaceBranding.update(a, { display_name: "Initech", accent_color: "#0B5FFF" })
        expect(first).toEqual({ display_name: "Initech", logo_url: null, accent_color: "#0b5fff" })
        const created = await storedBranding(harness, a)
        expect(created).toEqual({
          workspace_id: a.workspaceId,
          ...first,
          created_at: clock.now().toISOString(),
          updated_at: clock.now().toISOString(),
        })
        if (created === undefined) throw new Error("the update stored no branding")

        clock.advance(60_000)
        const second = await engine.workspaceBranding.update(a, {
          display_name: null,
          logo_url: "https://cdn.initech.example/logo.png",
        })
        expect(second).toEqual({
          display_name: null,
          logo_url: "https://cdn.initech.example/logo.png",
          accent_color: "#0b5fff",
        })
        expect(await storedBranding(harness, a)).toEqual({
          ...created,
          ...second,
          updated_at: clock.now().toISOString(),
        })

        const reason = new Error("rolled back on purpose")
        await expect(
          harness.storage.transaction(async (tx) => {
            await tx.workspaceBrandings.upsert({ ...created, display_name: "Rolled back" })
            throw reason
          }),
        ).rejects.toBe(reason)
        expect(await engine.workspaceBranding.get(a)).toEqual(second)
        expect(await engine.workspaceBranding.get(b)).toEqual(none)
        await engine.workspaceBranding.update(b, { display_name: "Other" })
        expect(await engine.workspaceBranding.get(a)).toEqual(second)
      },
    },
  ],
}
