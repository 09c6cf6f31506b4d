import type { JobHandlers } from "@payments-engine/core"
import { afterAll, describe, expect, it, vi } from "vitest"
import { TestClock } from "../clock/test-clock.ts"
import { openTestSqlite } from "../testing/test-sqlite.ts"

const sqlite = openTestSqlite()
afterAll(() => sqlite.close())

describe("the embedded job runner", () => {
  it("queues a scheduled kind for its next slot by the engine's clock, once, and runs it when the clock gets there", async () => {
    const storage = await sqlite.factory()
    const clock = new TestClock(new Date("2030-01-01T10:20:00.000Z"))
    const runs: Array<string> = []
    const handlers: JobHandlers = {
      kinds: [{ kind: "tick", schedule: { cron: "0 * * * *", everyMs: 60 * 60 * 1000 } }],
      run: async (kind) => {
        runs.push(`${kind} at ${clock.now().toISOString()}`)
      },
    }
    const first = storage.createJobRunner(handlers, { clock })
    const second = storage.createJobRunner(handlers, { clock })
    first.start()
    second.start()
    const scheduled = () => storage.db.selectFrom("jobs").select(["kind", "run_at", "state"]).execute()
    await vi.waitFor(async () =>
      expect(await scheduled()).toEqual([{ kind: "tick", run_at: "2030-01-01T11:00:00.000Z", state: "queued" }]),
    )
    expect(await first.runDue()).toEqual({ ran: 0, failed: 0 })
    clock.advance(40 * 60 * 1000)
    expect(await first.runDue()).toEqual({ ran: 1, failed: 0 })
    expect(runs).toEqual(["tick at 2030-01-01T11:00:00.000Z"])
    await vi.waitFor(async () =>
      expect(await scheduled()).toEqual([{ kind: "tick", run_at: "2030-01-01T12:00:00.000Z", state: "queued" }]),
    )
    await Promise.all([first.stop(), second.stop()])
    await storage.close()
  })
})
