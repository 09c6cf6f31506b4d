import { messages } from "@payments-engine/core"
import { expect } from "vitest"
import { expectRefusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"

/** Workspaces, API keys and settings. */
export const accessScenarios: ScenarioGroup = {
  title: "access",
  scenarios: [
    {
      id: "access.api-keys",
      title: "an API key authenticates with its secret only, as its workspace and scope",
      run: async ({ engine, storage, uniqueName }) => {
        const workspace = uniqueName("keys")
        const issued = await engine.access.createApiKey({ workspace })
        expect(issued).toEqual({
          workspace,
          workspace_id: expect.any(String),
          api_key: expect.any(String),
          api_secret: expect.any(String),
          scope: "write",
        })
        const actor = await engine.access.authenticate({ api_key: issued.api_key, api_secret: issued.api_secret })
        expect(actor).toEqual({ workspaceId: issued.workspace_id, scope: "write", apiKeyId: expect.any(String) })
        const refused = (body: unknown) =>
          expectRefusal(engine.access.authenticate(body), 401, "api_key", messages.invalidApiKey)
        await refused({ api_key: issued.api_key, api_secret: `${issued.api_secret}x` })
        await refused({ api_key: `${issued.api_key}x`, api_secret: issued.api_secret })
        const reader = await engine.access.createApiKey({ workspace, scope: "read", key: uniqueName("pk") })
        expect(reader.workspace_id).toBe(issued.workspace_id)
        const readActor = await engine.access.authenticate({ api_key: reader.api_key, api_secret: reader.api_secret })
        expect(readActor).toEqual({ workspaceId: issued.workspace_id, scope: "read", apiKeyId: expect.any(String) })
        expect(readActor.apiKeyId).not.toBe(actor.apiKeyId)
        const again = engine.access.createApiKey({ workspace: uniqueName("keys"), key: reader.api_key })
        await expectRefusal(again, 422, "api_key", messages.alreadyTaken)
        const row = await storage.transaction((tx) => tx.apiKeys.findByKey(reader.api_key))
        expect(row).toMatchObject({ workspace_id: issued.workspace_id, key: reader.api_key, scope: "read" })
        expect(row?.secret_hash).not.toBe(reader.api_secret)
        expect(await engine.access.apiKeyExists(reader.api_key)).toBe(true)
        expect(await engine.access.apiKeyExists(uniqueName("pk"))).toBe(false)
        expect(await engine.access.hasApiKeys()).toBe(true)
        const company = await engine.companies.create(actor, {
          name: "Acme Inc",
          country: "US",
          default_currency: "USD",
        })
        expect((await engine.companies.list(readActor)).data).toEqual([company])
      },
    },
    {
      id: "access.workspaces-and-settings",
      title: "a workspace name and a setting are stored once; the first value wins",
      run: async ({ engine, storage, reader, uniqueName }) => {
        const name = uniqueName("ws")
        const first = await engine.access.ensureWorkspace(name)
        expect(first).toEqual({ id: expect.any(String), name, created_at: expect.any(String) })
        expect(await engine.access.ensureWorkspace(name)).toEqual(first)
        expect(await reader.workspaceByName(name)).toEqual(first)
        expect((await engine.access.ensureWorkspace(uniqueName("ws"))).id).not.toBe(first.id)
        expect(await reader.workspaceByName(uniqueName("ws"))).toBeUndefined()
        const setting = uniqueName("setting")
        expect(await engine.access.settingOrInit(setting, () => "first")).toBe("first")
        expect(await engine.access.settingOrInit(setting, () => "second")).toBe("first")
        expect(await storage.transaction((tx) => tx.settings.putIfAbsent(setting, "third"))).toBe("first")
        expect(await storage.transaction((tx) => tx.settings.get(uniqueName("setting")))).toBeUndefined()
      },
    },
  ],
}
