import type { Actor, Repositories, TrustedDomainConfigRecord } from "@payments-engine/core"
import { expect } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"

const storedConfig = (harness: Harness, actor: Actor): Promise<TrustedDomainConfigRecord | undefined> =>
  harness.storage.transaction((tx: Repositories) => tx.trustedDomainConfigs.find(actor.workspaceId))

/** Trusted-domain configurations: one per workspace, replaced whole, found by workspace only. */
export const trustedDomainScenarios: ScenarioGroup = {
  title: "trusted domains",
  scenarios: [
    {
      id: "trusted-domains.one-per-workspace",
      title:
        "a workspace has no configuration until one is written; an upsert replaces its domains and keeps its id and created_at, racing upserts leave one configuration, a rolled-back one changes nothing; another workspace's configuration is never found nor changed",
      run: async (harness) => {
        const { engine, clock } = harness
        const a = await harness.workspace()
        const b = await harness.workspace()
        expect(await engine.trustedDomains.get(a)).toBeNull()
        expect(await storedConfig(harness, a)).toBeUndefined()

        const first = await engine.trustedDomains.upsert(a, { domains: ["Example.com", "*.bücher.example"] })
        expect(first).toEqual({
          id: expect.stringMatching(/^tdc_/),
          domains: ["example.com", "*.xn--bcher-kva.example"],
        })
        expect(await engine.trustedDomains.get(a)).toEqual(first)
        expect(await engine.trustedDomains.get(b)).toBeNull()
        const created = await storedConfig(harness, a)
        if (created === undefined) throw new Error("the upsert stored no configuration")
        expect(created).toEqual({
          id: first.id,
          workspace_id: a.workspaceId,
          domains: JSON.stringify(first.domains),
          created_at: clock.now().toISOString(),
          updated_at: clock.now().toISOString(),
        })

        clock.advance(60_000)
        const second = await engine.trustedDomains.upsert(a, { domains: ["pay.example.org"] })
        expect(second).toEqual({ id: first.id, domains: ["pay.example.org"] })
        expect(await storedConfig(harness, a)).toEqual({
          ...created,
          domains: '["pay.example.org"]',
          updated_at: clock.now().toISOString(),
        })

        const racing = [engine, harness.secondEngine(), engine]
        const raced = await Promise.all(
          racing.map((each, i) => each.trustedDomains.upsert(a, { domains: [`r${i}.example`] })),
        )
        for (const config of raced) expect(config.id).toBe(first.id)
        const afterRace = await engine.trustedDomains.get(a)
        expect(afterRace?.id).toBe(first.id)
        expect(raced.map((config) => config.domains)).toContainEqual(afterRace?.domains)

        const reason = new Error("rolled back on purpose")
        await expect(
          harness.storage.transaction(async (tx) => {
            await tx.trustedDomainConfigs.upsert({ ...created, domains: '["rolled.example"]' })
            throw reason
          }),
        ).rejects.toBe(reason)
        expect(await engine.trustedDomains.get(a)).toEqual(afterRace)

        const inB = await engine.trustedDomains.upsert(b, { domains: ["b.example"] })
        expect(inB.id).not.toBe(first.id)
        expect(await engine.trustedDomains.get(a)).toEqual(afterRace)
        expect(await engine.trustedDomains.get(b)).toEqual(inB)
        await engine.trustedDomains.upsert(b, { domains: [] })
        expect(await engine.trustedDomains.get(b)).toEqual({ id: inB.id, domains: [] })
        expect(await engine.trustedDomains.get(a)).toEqual(afterRace)
      },
    },
  ],
}
