import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { JobId } from "@payments-engine/core"
import { afterAll, describe, expect, it } from "vitest"
import { kyselyStorageOf } from "../storage/kysely-storage.ts"
import { openSqliteStorage } from "../storage/sqlite/sqlite-storage.ts"

/*
 * A job that kills its process every time it runs, on the embedded runner over a SQLite file:
 * real worker processes, each SIGKILLed by the job, then started again on the same file.
 */

const folder = mkdtempSync(join(tmpdir(), "payments-engine-job-crash-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const worker = new URL("./test-support/crashing-job-worker.ts", import.meta.url).pathname

interface WorkerExit {
  readonly signal: NodeJS.Signals | null
  readonly lines: ReadonlyArray<Record<string, unknown>>
}

/** Starts the worker process on the file and waits for it to end, however it ends. */
const runWorker = (filename: string, startsFile: string): Promise<WorkerExit> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", worker, filename, startsFile], {
      stdio: ["ignore", "pipe", "inherit"],
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on("error", reject)
    child.on("close", (_code, signal) => {
      const lines = output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      resolve({ signal, lines })
    })
  })

const startsIn = (startsFile: string) =>
  existsSync(startsFile) ? readFileSync(startsFile, "utf8").split("\n").filter(Boolean).length : 0

describe("the embedded runner, when a job kills its process every time it runs", () => {
  it("counts each run as it starts, and gives the job up (logged) after max_attempts runs instead of running it again", async () => {
    const filename = join(folder, "jobs.sqlite")
    const startsFile = join(folder, "starts")
    const setUp = await openSqliteStorage({ filename })
    await setUp.transaction((tx) =>
      tx.jobs.enqueue({
        id: JobId.make("job_crash"),
        kind: "crash",
        payload: "{}",
        run_at: "2020-01-01T00:00:00.000Z",
        key: "crash:1",
        max_attempts: 3,
        created_at: "2020-01-01T00:00:00.000Z",
        workspace_id: null,
      }),
    )
    await setUp.close()

    for (let run = 1; run <= 3; run += 1) {
      const exit = await runWorker(filename, startsFile)
      expect(exit.signal, `worker ${run} was killed by its job`).toBe("SIGKILL")
      expect(startsIn(startsFile)).toBe(run)
    }

    const fourth = await runWorker(filename, startsFile)
    expect(fourth.signal).toBeNull()
    expect(startsIn(startsFile)).toBe(3)
    expect(fourth.lines).toEqual([
      {
        log: {
          kind: "crash",
          outcome: "given_up",
          error: "Interrupted: the process ended during the job's last run",
          attempt: 3,
          fields: {},
        },
      },
      { report: { ran: 0, failed: 0 } },
    ])

    const fifth = await runWorker(filename, startsFile)
    expect(fifth).toEqual({ signal: null, lines: [{ report: { ran: 0, failed: 0 } }] })

    const after = kyselyStorageOf(await openSqliteStorage({ filename }))
    const rows = await after.db.selectFrom("jobs").select(["id", "state", "attempts", "last_error"]).execute()
    await after.close()
    expect(rows).toEqual([
      {
        id: "job_crash",
        state: "failed",
        attempts: 3,
        last_error: "Interrupted: the process ended during the job's last run",
      },
    ])
  })
})
