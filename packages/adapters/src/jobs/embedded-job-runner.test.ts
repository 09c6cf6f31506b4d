import { describe, expect, it } from "vitest"
import { startJobRunner } from "./embedded-job-runner.ts"

/** An engine whose queue holds `due` jobs; each runDue call runs at most `limit`. */
const fakeEngine = (due: number) => {
  const state = { due, passes: 0, nextRunAtCalls: 0 }
  let settled: () => void = () => {}
  const idle = new Promise<void>((resolve) => {
    settled = resolve
  })
  return {
    state,
    idle,
    engine: {
      jobs: {
        runDue: async (limit = 2) => {
          state.passes += 1
          const ran = Math.min(limit, state.due)
          state.due -= ran
          return { ran, failed: 0 }
        },
        nextRunAt: async () => {
          state.nextRunAtCalls += 1
          settled()
          return undefined
        },
      },
    },
  }
}

describe("startJobRunner", () => {
  it("runs every due job on start, then asks when to wake up", async () => {
    const { engine, state, idle } = fakeEngine(5)
    const reports: unknown[] = []
    const runner = startJobRunner(engine, { pollMs: 60_000, log: (event) => reports.push(event) })
    await idle
    await runner.stop()
    expect(state.due).toBe(0)
    expect(state.passes).toBe(4) // 2 + 2 + 1, then an empty pass
    expect(reports).toEqual([
      { ran: 2, failed: 0 },
      { ran: 2, failed: 0 },
      { ran: 1, failed: 0 },
    ])
  })

  it("reports a failing engine and keeps going instead of crashing", async () => {
    const errors: unknown[] = []
    let resolveSeen: () => void = () => {}
    const seen = new Promise<void>((resolve) => {
      resolveSeen = resolve
    })
    const runner = startJobRunner(
      {
        jobs: {
          runDue: async () => {
            throw new Error("database is down")
          },
          nextRunAt: async () => undefined,
        },
      },
      {
        pollMs: 60_000,
        log: (event) => {
          errors.push(event)
          resolveSeen()
        },
      },
    )
    await seen
    await runner.stop()
    expect(errors).toEqual([{ error: new Error("database is down") }])
  })

  it("stop waits for the pass in flight", async () => {
    let release: () => void = () => {}
    let finished = false
    const runner = startJobRunner({
      jobs: {
        runDue: () =>
          new Promise((resolve) => {
            release = () => {
              finished = true
              resolve({ ran: 0, failed: 0 })
            }
          }),
        nextRunAt: async () => undefined,
      },
    })
    const stopping = runner.stop()
    release()
    await stopping
    expect(finished).toBe(true)
  })
})
