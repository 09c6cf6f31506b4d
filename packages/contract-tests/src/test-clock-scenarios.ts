import type { Actor } from "@payments-engine/core"
import { expect } from "vitest"
import { expectRefusal, type Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { queueTestJob, testRunner } from "./job-scenarios.ts"

const tenMinutes = 10 * 60 * 1000
const company = { name: "Clocked", country: "US", default_currency: "USD" }

/** A workspace's time on an engine, in milliseconds. */
const timeOf = async (harness: Harness, actor: Actor, engine = harness.sandboxEngine()) =>
  (await engine.testClocks.now(actor)).getTime()

/** Sandbox mode's test clocks: one per workspace, kept in storage. */
export const testClockScenarios: ScenarioGroup = {
  title: "test clocks",
  scenarios: [
    {
      id: "test-clocks.per-workspace",
      title:
        "a workspace's test clock starts at the engine's time and moves only by its own advances, each counted even when they race; another engine on the storage (a restart, a second process) reads the same time; a rolled-back advance moves nothing; the workspace's resources are stamped by it",
      run: async (harness) => {
        const { clock, storage } = harness
        const engine = harness.sandboxEngine()
        const a = await harness.workspace()
        const b = await harness.workspace()
        const start = clock.now().getTime()
        expect(await timeOf(harness, a, engine)).toBe(start)

        expect((await engine.testClocks.advance(a, { seconds: 900 })).now.getTime()).toBe(start + 900_000)
        expect(await timeOf(harness, a, engine)).toBe(start + 900_000)
        expect(await timeOf(harness, b, engine)).toBe(start)
        expect(await timeOf(harness, a)).toBe(start + 900_000)

        // The engine's clock still ticks under the offset.
        clock.advance(1000)
        expect(await timeOf(harness, a)).toBe(start + 901_000)

        const racing = [harness.sandboxEngine(), harness.sandboxEngine(), engine]
        await Promise.all(racing.map((each) => each.testClocks.advance(a, { seconds: 60 })))
        expect(await timeOf(harness, a)).toBe(start + 1_081_000)

        const reason = new Error("rolled back on purpose")
        await expect(
          storage.transaction(async (tx) => {
            await tx.testClocks.advance(a.workspaceId, tenMinutes)
            throw reason
          }),
        ).rejects.toBe(reason)
        expect(await timeOf(harness, a)).toBe(start + 1_081_000)
        expect(await timeOf(harness, b)).toBe(start + 1000)

        const inA = await engine.companies.create(a, company)
        const inB = await engine.companies.create(b, company)
        expect(inA.created_at).toBe(new Date(start + 1_081_000).toISOString())
        expect(inB.created_at).toBe(new Date(start + 1000).toISOString())

        // Outside sandbox mode there are no test clocks: the engine's time, and no advance.
        expect(await timeOf(harness, a, harness.engine)).toBe(start + 1000)
        await expectRefusal(
          harness.engine.testClocks.advance(a, { seconds: 1 }),
          "forbidden",
          "base",
          "Test clocks exist in sandbox mode only",
        )
      },
    },
    {
      id: "test-clocks.jobs",
      title:
        "a workspace's advance brings its waiting jobs as much closer, in its transaction; another workspace's jobs and the engine's own upkeep stay put; a run for one workspace reports only its jobs",
      run: async (harness) => {
        const { clock, storage } = harness
        const engine = harness.sandboxEngine()
        const a = await harness.workspace()
        const b = await harness.workspace()
        const { runner, runs } = testRunner(harness)
        await queueTestJob(harness, "a-later", { delayMs: tenMinutes, workspaceId: a.workspaceId })
        await queueTestJob(harness, "b-later", { delayMs: tenMinutes, workspaceId: b.workspaceId })
        await queueTestJob(harness, "upkeep-later", { delayMs: tenMinutes })

        const reason = new Error("rolled back on purpose")
        await expect(
          storage.transaction(async (tx) => {
            await tx.jobs.bringForward(a.workspaceId, tenMinutes)
            throw reason
          }),
        ).rejects.toBe(reason)
        expect(await runner.runDue()).toEqual({ ran: 0, failed: 0 })

        await engine.testClocks.advance(b, { seconds: 9 * 60 })
        expect(await runner.runDue()).toEqual({ ran: 0, failed: 0 })
        await engine.testClocks.advance(a, { seconds: 10 * 60 })
        // A's job runs, but a run for B does not count it.
        expect(await runner.runDue({ workspaceId: b.workspaceId })).toEqual({ ran: 0, failed: 0 })
        expect(runs()).toEqual(["a-later"])

        // B's job was brought 9 minutes closer, the upkeep job not at all.
        clock.advance(60_000)
        expect(await runner.runDue()).toEqual({ ran: 1, failed: 0 })
        expect(runs()).toEqual(["a-later", "b-later"])
        clock.advance(9 * 60_000 - 1000)
        expect(await runner.runDue()).toEqual({ ran: 0, failed: 0 })
        clock.advance(1000)
        expect(await runner.runDue()).toEqual({ ran: 1, failed: 0 })

        await queueTestJob(harness, "a-now", { workspaceId: a.workspaceId })
        await queueTestJob(harness, "b-now", { workspaceId: b.workspaceId })
        expect(await runner.runDue({ workspaceId: a.workspaceId })).toEqual({ ran: 1, failed: 0 })
        expect(runs().sort()).toEqual(["a-later", "a-now", "b-later", "b-now", "upkeep-later"])
        await runner.stop()
      },
    },
  ],
}
