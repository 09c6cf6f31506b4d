import { type JobHandlers, JobId } from "@payments-engine/core"
import { afterAll, describe, expect, it, vi } from "vitest"
import { TestClock } from "../clock/test-clock.ts"
import { openTestSqlite } from "../testing/test-sqlite.ts"
import { describeFailure, embeddedJobQueue, type JobTable } from "./embedded-job-runner.ts"
import { kyselyJobTable } from "./kysely-job-table.ts"

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

  it("runs up to its concurrency of due jobs at once, and never more", async () => {
    const storage = await sqlite.factory()
    const clock = new TestClock(new Date("2030-01-01T10:00:00.000Z"))
    let inFlight = 0
    let most = 0
    const handlers: JobHandlers = {
      kinds: [{ kind: "slow" }],
      run: async () => {
        inFlight += 1
        most = Math.max(most, inFlight)
        // Every job waits for the others of its round to start, as a provider call would overlap them.
        await new Promise((resolve) => setImmediate(resolve))
        await new Promise((resolve) => setImmediate(resolve))
        inFlight -= 1
      },
    }
    const queueSlow = (names: ReadonlyArray<string>) =>
      storage.transaction(async (tx) => {
        for (const name of names) {
          await tx.jobs.enqueue({
            id: JobId.make(`job_slow_${name}`),
            kind: "slow",
            payload: "{}",
            run_at: clock.now().toISOString(),
            key: null,
            max_attempts: 1,
            created_at: clock.now().toISOString(),
            workspace_id: null,
          })
        }
      })
    await queueSlow(Array.from({ length: 12 }, (_, i) => String(i).padStart(2, "0")))
    expect(await storage.createJobRunner(handlers, { clock, lanes: { default: 5 } }).runDue()).toEqual({
      ran: 12,
      failed: 0,
    })
    expect(most).toBe(5)
    most = 0
    await queueSlow(["a", "b", "c"])
    expect(await storage.createJobRunner(handlers, { clock }).runDue()).toEqual({ ran: 3, failed: 0 })
    expect(most).toBe(1)
    await storage.close()
  })

  /*
   * Issue 8, defect 4: the runner before this one busy-looped on a locked job (39 % CPU on
   * SQLite), because its next due time counted locked jobs. Here the job in hand is still queued
   * and due; what keeps another runner from spinning is that its next due time counts only jobs
   * due later (one due now that it cannot start waits for a job's end, which wakes it): each
   * wake-up costs one look (due jobs, then the next due time), never a loop.
   */
  it("does not spin while another runner of the storage has a job in hand, however often it is woken", async () => {
    const storage = await sqlite.factory()
    const clock = new TestClock(new Date("2030-01-01T10:00:00.000Z"))
    let calls = 0
    const table = kyselyJobTable(storage.db)
    const counted = Object.fromEntries(
      Object.entries(table).map(([name, call]) => [
        name,
        (...args: Array<never>) => {
          calls += 1
          return (call as (...args: Array<never>) => Promise<unknown>)(...args)
        },
      ]),
    ) as unknown as JobTable
    const queue = embeddedJobQueue(counted)
    let inHand = false
    let finish = () => {}
    const handlers: JobHandlers = {
      kinds: [{ kind: "hold" }],
      run: () =>
        new Promise<void>((resolve) => {
          inHand = true
          finish = resolve
        }),
    }
    await storage.transaction((tx) =>
      tx.jobs.enqueue({
        id: JobId.make("job_hold"),
        kind: "hold",
        payload: "{}",
        run_at: clock.now().toISOString(),
        key: "hold:1",
        max_attempts: 1,
        created_at: clock.now().toISOString(),
        workspace_id: null,
      }),
    )
    const holder = queue.createRunner(handlers, { clock })
    const other = queue.createRunner(handlers, { clock })
    const holding = holder.runDue()
    await vi.waitFor(() => expect(inHand).toBe(true))
    other.start()
    const before = calls
    // Woken as every commit that queues a job wakes it, during a bounded real interval.
    for (let wakeUp = 0; wakeUp < 20; wakeUp += 1) {
      queue.notify()
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const during = calls - before
    finish()
    expect(await holding).toEqual({ ran: 1, failed: 0 })
    // Two calls a wake-up (due jobs, then the next due time), and idle, the same once a second.
    expect(during, "calls to the job table while the job was in hand, in one second").toBeLessThanOrEqual(2 * 20 + 4)
    await other.stop()
    await storage.close()
  })
})

describe("a job's failure as stored and logged", () => {
  it("keeps the message of the engine's tagged errors only, never another error's, which may quote data", () => {
    const provider = Object.assign(new Error("the provider refused the payment"), { _tag: "ProviderFailure" })
    expect(describeFailure(provider)).toBe("ProviderFailure: the provider refused the payment")
    expect(describeFailure(new TypeError("cannot read account DE89370400440532013000"))).toBe("TypeError")
    expect(describeFailure("a thrown string with a secret")).toBe("Error")
    expect(describeFailure({ _tag: "Invalid", message: "x".repeat(600) })).toHaveLength(500)
  })
})
