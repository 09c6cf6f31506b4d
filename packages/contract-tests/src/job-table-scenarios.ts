import type { JobId, JobRequest, JobTable } from "@payments-engine/core"
import { expect } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ContractScenario, ScenarioGroup } from "./contract-scenario.ts"
import { counterIds } from "./test-ports.ts"

const needsJobTable: ContractScenario["requires"] = {
  option: "jobTable",
  because: "the storage's jobs do not run on the embedded runner's job table",
}

/** The table under test; the scenarios run only when the suite was given one. */
const tableOf = (harness: Harness): JobTable => {
  if (harness.jobTable === undefined) throw new Error("job-table scenarios need the suite's jobTable option")
  return harness.jobTable
}

/**
 * Jobs of kinds no other test queues, so that rows other tests left in a shared storage never
 * count; `at(ms)` is the engine's now moved by `ms`.
 */
const jobsOf = (harness: Harness) => {
  const ids = counterIds()
  const kind = harness.uniqueName("job-table")
  const otherKind = `${kind}-other`
  const base = harness.clock.now().getTime()
  const at = (ms: number) => new Date(base + ms).toISOString()
  const job = (runAtMs: number, fields: Partial<JobRequest> = {}): JobRequest => ({
    id: ids.next("job"),
    kind,
    payload: '{"name":"job-table «é» \\"q\\""}',
    run_at: at(runAtMs),
    key: null,
    max_attempts: 3,
    created_at: at(0),
    workspace_id: null,
    ...fields,
  })
  return { kind, otherKind, at, job }
}

/** Takes the job's first run and gives it up at once, as the runner does with a run that fails its last attempt. */
const giveUpFirstRun = async (table: JobTable, id: JobId, at: string) => {
  expect(await table.take(id, { attempts: 1, updated_at: at })).toBe(true)
  await table.giveUp(id, { attempts: 1, last_error: "Error", updated_at: at })
}

/** The embedded runner's job table (`JobTable`), checked directly: what the runner's choices rest on. */
export const jobTableScenarios: ScenarioGroup = {
  title: "job table",
  scenarios: [
    {
      id: "job-table.due",
      title:
        "due gives the queued jobs of the kinds asked due by now (one due exactly now too), oldest run_at first and then by id, not by id first, at most the limit, outside the busy queues; never one given up, done, of another kind or due later",
      requires: needsJobTable,
      run: async (harness) => {
        const table = tableOf(harness)
        const { kind, otherKind, at, job } = jobsOf(harness)
        // Queued (so ids run) in an order unlike their due times.
        const minus1 = job(-1000)
        const minus3 = job(-3000)
        const minus2 = job(-2000)
        const dueNow = job(0)
        const later = job(1)
        const queued = job(-2500, { queue: "q1" })
        // Two due at the same time: by id.
        const [tieFirst, tieSecond] = [job(-1500), job(-1500)]
        const otherKindJob = job(-4000, { kind: otherKind })
        const givenUp = job(-5000)
        const done = job(-6000)
        for (const each of [
          minus1,
          minus3,
          minus2,
          dueNow,
          later,
          queued,
          tieFirst,
          tieSecond,
          otherKindJob,
          givenUp,
          done,
        ]) {
          await table.enqueue(each)
        }
        await giveUpFirstRun(table, givenUp.id, at(0))
        expect(await table.take(done.id, { attempts: 1, updated_at: at(0) })).toBe(true)
        await table.finish(done.id)

        const due = async (kinds: ReadonlyArray<string>, limit = 20, busy: ReadonlyArray<string> = [], now = at(0)) =>
          (await table.due(now, kinds, limit, busy)).map((row) => row.id)
        const oldestFirst = [minus3, queued, minus2, tieFirst, tieSecond, minus1, dueNow].map((row) => row.id)
        expect(await due([kind])).toEqual(oldestFirst)
        expect(await due([kind], 3)).toEqual(oldestFirst.slice(0, 3))
        expect(await due([kind], 20, ["q1"])).toEqual(oldestFirst.filter((id) => id !== queued.id))
        expect(await due([kind], 20, ["q2"])).toEqual(oldestFirst)
        expect(await due([kind, otherKind])).toEqual([otherKindJob.id, ...oldestFirst])
        expect(await due([otherKind])).toEqual([otherKindJob.id])
        expect(await due([])).toEqual([])
        expect(await due([kind], 20, [], at(1))).toEqual([...oldestFirst, later.id])
        expect(await due([kind], 20, [], at(-3001))).toEqual([])

        // As queued, with the runs counted so far.
        expect(await table.take(minus3.id, { attempts: 1, updated_at: at(0) })).toBe(true)
        const [first] = await table.due(at(0), [kind], 1, [])
        expect(first).toMatchObject({
          id: minus3.id,
          kind,
          payload: minus3.payload,
          run_at: minus3.run_at,
          attempts: 1,
          max_attempts: 3,
          workspace_id: null,
          queue: null,
        })
        expect((await table.due(at(0), [kind], 20, [])).find((row) => row.id === queued.id)).toMatchObject({
          queue: "q1",
        })
      },
    },
    {
      id: "job-table.next-run-at",
      title:
        "nextRunAt, when the runner wakes next, is the earliest run_at strictly after the time asked of queued jobs of the kinds asked; a job given up, done, or of another kind never counts",
      requires: needsJobTable,
      run: async (harness) => {
        const table = tableOf(harness)
        const { kind, otherKind, at, job } = jobsOf(harness)
        const inTen = job(10_000)
        const inTwenty = job(20_000)
        const otherKindSoon = job(5000, { kind: otherKind })
        // Due soonest, but given up or done: the runner must not wake for them.
        const givenUp = job(1000)
        const done = job(2000)
        for (const each of [inTwenty, inTen, otherKindSoon, givenUp, done]) await table.enqueue(each)
        await giveUpFirstRun(table, givenUp.id, at(0))
        expect(await table.take(done.id, { attempts: 1, updated_at: at(0) })).toBe(true)
        await table.finish(done.id)

        expect(await table.nextRunAt([kind], at(0))).toBe(inTen.run_at)
        expect(await table.nextRunAt([kind, otherKind], at(0))).toBe(otherKindSoon.run_at)
        expect(await table.nextRunAt([otherKind], at(0))).toBe(otherKindSoon.run_at)
        // Strictly after: a job due at the time asked about is due, not next.
        expect(await table.nextRunAt([kind], inTen.run_at)).toBe(inTwenty.run_at)
        expect(await table.nextRunAt([kind], inTwenty.run_at)).toBeUndefined()
        expect(await table.nextRunAt([], at(0))).toBeUndefined()

        // A retry moves the job's next run.
        expect(await table.take(inTen.id, { attempts: 1, updated_at: at(0) })).toBe(true)
        await table.retry(inTen.id, { run_at: at(30_000), attempts: 1, last_error: "Error", updated_at: at(0) })
        expect(await table.nextRunAt([kind], at(0))).toBe(inTwenty.run_at)
        expect(await table.nextRunAt([kind], inTwenty.run_at)).toBe(at(30_000))
      },
    },
    {
      id: "job-table.runs-and-stamps",
      title:
        "take counts a run only of a queued job with one run fewer (never the same run twice), and take, retry and giveUp stamp the row with the engine's time they are given, never the database's clock; a job given up stays, one finished leaves",
      requires: needsJobTable,
      run: async (harness) => {
        const table = tableOf(harness)
        const { kind, at, job } = jobsOf(harness)
        const stampsOf = (id: JobId) => harness.reader.stampsOf("job", id)
        const first = job(0)
        const finished = job(0)
        for (const each of [first, finished]) await table.enqueue(each)
        expect(await stampsOf(first.id)).toEqual({ created_at: at(0), updated_at: at(0), deleted_at: null })

        expect(await table.take(first.id, { attempts: 1, updated_at: at(1001) })).toBe(true)
        expect(await stampsOf(first.id)).toEqual({ created_at: at(0), updated_at: at(1001), deleted_at: null })
        // The same run again, as a second runner that read the job before the first took it would try.
        expect(await table.take(first.id, { attempts: 1, updated_at: at(1002) })).toBe(false)
        expect(await table.take(first.id, { attempts: 3, updated_at: at(1002) })).toBe(false)
        expect(await stampsOf(first.id)).toMatchObject({ updated_at: at(1001) })

        await table.retry(first.id, { run_at: at(5000), attempts: 1, last_error: "Error", updated_at: at(2003) })
        expect(await stampsOf(first.id)).toMatchObject({ updated_at: at(2003) })
        expect((await table.due(at(4999), [kind], 10, [])).map((row) => row.id)).toEqual([finished.id])
        expect(await table.due(at(5000), [kind], 10, [])).toEqual(
          expect.arrayContaining([expect.objectContaining({ id: first.id, attempts: 1 })]),
        )

        expect(await table.take(first.id, { attempts: 2, updated_at: at(5004) })).toBe(true)
        expect(await stampsOf(first.id)).toMatchObject({ updated_at: at(5004) })
        await table.giveUp(first.id, { attempts: 2, last_error: "Error", updated_at: at(6005) })
        expect(await stampsOf(first.id)).toEqual({ created_at: at(0), updated_at: at(6005), deleted_at: null })
        // Given up: it stays for an operator, runs no more, and cannot be taken again.
        expect(await table.take(first.id, { attempts: 3, updated_at: at(7006) })).toBe(false)
        expect((await table.due(at(60_000), [kind], 10, [])).map((row) => row.id)).toEqual([finished.id])

        expect(await table.take(finished.id, { attempts: 1, updated_at: at(7007) })).toBe(true)
        await table.finish(finished.id)
        expect(await stampsOf(finished.id)).toBeUndefined()
        expect(await table.due(at(60_000), [kind], 10, [])).toEqual([])
      },
    },
  ],
}
