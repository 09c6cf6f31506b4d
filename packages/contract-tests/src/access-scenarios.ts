import { ApiKeyId, messages, type SessionCreateBody } from "@payments-engine/core"
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
        expect(actor).toEqual({
          workspaceId: issued.workspace_id,
          scope: "write",
          keyId: expect.any(String),
          endsBy: null,
        })
        const refused = (body: unknown) =>
          expectRefusal(
            engine.access.authenticate(body as SessionCreateBody),
            "unauthenticated",
            "api_key",
            messages.invalidApiKey,
          )
        await refused({ api_key: issued.api_key, api_secret: `${issued.api_secret}x` })
        await refused({ api_key: `${issued.api_key}x`, api_secret: issued.api_secret })
        const reader = await engine.access.createApiKey({ workspace, scope: "read", key: uniqueName("pk") })
        expect(reader.workspace_id).toBe(issued.workspace_id)
        const readActor = await engine.access.authenticate({ api_key: reader.api_key, api_secret: reader.api_secret })
        expect(readActor).toMatchObject({ workspaceId: issued.workspace_id, scope: "read" })
        expect(readActor.keyId).not.toBe(actor.keyId)
        const again = engine.access.createApiKey({ workspace: uniqueName("keys"), key: reader.api_key })
        await expectRefusal(again, "invalid", "api_key", messages.alreadyTaken)
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
      id: "access.key-lifecycle",
      title: "keys are listed by workspace, revoked once and for good, and rotated only from the secret read",
      run: async ({ engine, storage, clock, uniqueName }) => {
        const workspace = uniqueName("keys")
        const first = await engine.access.createApiKey({ workspace, key: uniqueName("pk") })
        const second = await engine.access.createApiKey({ workspace, scope: "read", key: uniqueName("pk") })
        const other = await engine.access.createApiKey({ workspace: uniqueName("keys"), key: uniqueName("pk") })
        const keyId = (await engine.access.authenticate(first)).keyId
        const claims = { workspaceId: first.workspace_id, keyId, scope: "write" } as const

        const listed = await engine.access.listApiKeys(workspace)
        expect(listed.map((key) => key.api_key)).toEqual([first.api_key, second.api_key])
        expect(listed[1]).toEqual({
          api_key: second.api_key,
          workspace,
          workspace_id: first.workspace_id,
          scope: "read",
          created_at: clock.now().toISOString(),
          revoked_at: null,
          rotated_at: null,
          previous_secret_expires_at: null,
        })
        const everyKey = await storage.transaction((tx) => tx.apiKeys.list(undefined))
        const ours = everyKey.filter((row) => [first.api_key, second.api_key, other.api_key].includes(row.key))
        expect(ours.map((row) => row.key)).toEqual([first.api_key, second.api_key, other.api_key])
        expect(await storage.transaction((tx) => tx.apiKeys.findById(keyId))).toMatchObject({ key: first.api_key })
        expect(await storage.transaction((tx) => tx.workspaces.findById(first.workspace_id))).toMatchObject({
          name: workspace,
        })

        expect(await engine.access.tokenActor(claims)).toEqual({ ...claims })
        expect(await engine.access.tokenActor({ ...claims, workspaceId: other.workspace_id })).toBeUndefined()
        expect(await engine.access.tokenActor({ ...claims, keyId: ApiKeyId.make(uniqueName("key")) })).toBeUndefined()

        // Rotation: the old secret works until the grace period ends, by the engine's clock.
        const rotatedAt = clock.now().toISOString()
        const rotated = await engine.access.rotateApiKey(first.api_key, 60)
        expect(rotated).toMatchObject({ rotated_at: rotatedAt, revoked_at: null })
        const fresh = { api_key: first.api_key, api_secret: rotated.api_secret }
        expect(await engine.access.authenticate(first)).toMatchObject({
          keyId,
          endsBy: rotated.previous_secret_expires_at,
        })
        expect(await engine.access.authenticate(fresh)).toMatchObject({ keyId, endsBy: null })
        // A rotation from a secret read before the last one writes nothing.
        const stale = await storage.transaction((tx) =>
          tx.apiKeys.rotateSecret(keyId, "plain:stale", {
            secret_hash: "plain:other",
            previous_secret_hash: "plain:stale",
            previous_secret_expires_at: rotatedAt,
            rotated_at: rotatedAt,
          }),
        )
        expect(stale).toBeUndefined()
        expect(await engine.access.authenticate(fresh)).toMatchObject({ keyId })
        clock.advance(60_000)
        await expectRefusal(engine.access.authenticate(first), "unauthenticated", "api_key", messages.invalidApiKey)

        // Revocation: stamped once, refused for good, and never undone by a rotation.
        const revokedAt = clock.now().toISOString()
        expect((await engine.access.revokeApiKey(first.api_key)).revoked_at).toBe(revokedAt)
        clock.advance(1000)
        expect((await engine.access.revokeApiKey(first.api_key)).revoked_at).toBe(revokedAt)
        await expectRefusal(engine.access.authenticate(fresh), "unauthenticated", "api_key", messages.invalidApiKey)
        expect(await engine.access.tokenActor(claims)).toBeUndefined()
        await expectRefusal(engine.access.rotateApiKey(first.api_key), "conflict", "api_key", messages.apiKeyRevoked)
        const current = await storage.transaction((tx) => tx.apiKeys.findById(keyId))
        const undo = await storage.transaction((tx) =>
          tx.apiKeys.rotateSecret(keyId, current?.secret_hash ?? "", {
            secret_hash: "plain:back",
            previous_secret_hash: current?.secret_hash ?? "",
            previous_secret_expires_at: revokedAt,
            rotated_at: revokedAt,
          }),
        )
        expect(undo).toBeUndefined()
        await expectRefusal(
          engine.access.authenticate({ api_key: first.api_key, api_secret: "back" }),
          "unauthenticated",
          "api_key",
          messages.invalidApiKey,
        )
        expect(
          await storage.transaction((tx) => tx.apiKeys.revoke(ApiKeyId.make(uniqueName("key")), revokedAt)),
        ).toBeUndefined()
        expect((await engine.access.listApiKeys(workspace))[0]).toMatchObject({ revoked_at: revokedAt })
        expect(
          await engine.access.tokenActor({
            ...claims,
            keyId: (await engine.access.authenticate(second)).keyId,
            scope: "read",
          }),
        ).toMatchObject({ scope: "read" })
        await expectRefusal(
          engine.access.listApiKeys(uniqueName("keys")),
          "not_found",
          "workspace",
          "Workspace not found",
        )
      },
    },
    {
      id: "access.workspaces-and-settings",
      title:
        "a workspace name and a setting are stored once; the first value wins, and is what get reads, until the setting is removed",
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
        expect(await storage.transaction((tx) => tx.settings.get(setting))).toBe("first")
        expect(await storage.transaction((tx) => tx.settings.get(uniqueName("setting")))).toBeUndefined()
        expect(await storage.transaction((tx) => tx.settings.remove(setting))).toBe(true)
        expect(await storage.transaction((tx) => tx.settings.get(setting))).toBeUndefined()
        expect(await storage.transaction((tx) => tx.settings.remove(setting))).toBe(false)
        expect(await engine.access.settingOrInit(setting, () => "fourth")).toBe("fourth")
      },
    },
  ],
}
