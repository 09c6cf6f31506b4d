import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { processRig } from "./support/process-rig.ts"
import { awaitCompleted, queuePayments, statusesOf } from "./support/queued-payments.ts"

/*
 * A process killed with SIGKILL in the middle of executing payments, then started again on the
 * same database: every payment completes within 30 s of the restart, and the provider, whose
 * books outlive our processes, executes each one once.
 */

const { folder, running, serverUrl, postgresUrl, startRecordingService: start } = processRig("crash")

const crashAndRestart = async (databaseUrl: string) => {
  const book = join(folder, `book-${Date.now()}.txt`)
  const env = { DATABASE_URL: databaseUrl, PAYMENTS_SANDBOX: "true", PROVIDER_BOOK: book }
  const ids = await queuePayments(databaseUrl, 5, "crash")
  // The first process executes two payments, then hangs in the third one's provider call.
  const first = await start({ ...env, HANG_ON_SUBMISSION: "3" })
  const submittedThird = () =>
    readFileSync(book, { encoding: "utf8", flag: "a+" })
      .split("\n")
      .filter((line) => line.startsWith("submitted ")).length >= 3
  for (let i = 0; i < 600 && !submittedThird(); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(submittedThird()).toBe(true)
  first.child.kill("SIGKILL")
  await first.exited
  running.delete(first)
  expect(await statusesOf(databaseUrl, ids)).toContain("processing")

  const second = await start(env)
  const restarted = Date.now()
  expect(await awaitCompleted(databaseUrl, ids, 30_000)).toEqual(ids.map(() => "completed"))
  const resumedMs = Date.now() - restarted
  expect(resumedMs).toBeLessThan(30_000)
  console.log(`crash resume ${databaseUrl.split(":")[0]}: open payments completed ${resumedMs} ms after the restart`)
  const lines = readFileSync(book, "utf8").split("\n")
  for (const id of ids) expect(lines.filter((line) => line === `executed ${id}`)).toHaveLength(1)
  second.child.kill("SIGTERM")
  await second.exited
  running.delete(second)
}

describe("a service killed with SIGKILL mid-work", () => {
  it("on SQLite, completes every interrupted payment once after the restart, executing none twice", async () => {
    await crashAndRestart(`sqlite:${join(folder, "crash.sqlite")}`)
  }, 60_000)

  /** Kills in a row on Postgres: 1, or `CRASH_RESUME_KILLS` to measure (docs/benchmarks.md). */
  const kills = Number(process.env.CRASH_RESUME_KILLS ?? "1")
  it.skipIf(serverUrl === undefined)(
    "on Postgres (graphile-worker), completes every interrupted payment once within 30 s of the restart",
    async () => {
      for (let kill = 0; kill < kills; kill += 1) await crashAndRestart(postgresUrl(`restart${kill}`))
    },
    90_000 * kills,
  )
})
