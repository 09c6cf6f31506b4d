import { readFileSync } from "node:fs"
import { join } from "node:path"
import { defaultBatchExecution } from "@payments-engine/core"
import { describe, expect, it } from "vitest"
import { shutdownCutShortWarning } from "../src/service/server.ts"
import { childEnvironment, type LineWatcher, logMessage, startNode } from "./support/child-process.ts"
import { processRig } from "./support/process-rig.ts"
import { awaitCompleted, queuePayments } from "./support/queued-payments.ts"

/*
 * SIGTERM on a real process (DECISIONS "Shutdown"): it stops taking jobs at once, waits for the
 * work in flight no longer than its grace, exits 0, and leaves nothing undone that the next start
 * does not finish; a process whose standard output has gone exits all the same.
 */

const recordingService = [
  "--conditions=source",
  "--import",
  "tsx",
  "packages/http-koa/test/support/recording-service.ts",
]
const main = ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"]
const { folder, running, serverUrl, postgresUrl } = processRig("shutdown")
/** Far beyond the 10 s grace and a process's start: a shutdown that has not ended by then hangs. */
const hangingAfterMs = 25_000

const start = async (command: ReadonlyArray<string>, env: Record<string, string>) => {
  const service = startNode(command, childEnvironment({ PORT: "0", LOG_LEVEL: "info", ...env }))
  running.add(service)
  await service.waitForLine(logMessage("listening"))
  return service
}

/** Sends SIGTERM; the exit code, or "hanging" when the process is still there after {@link hangingAfterMs}. */
const terminate = async (service: LineWatcher): Promise<number | null | "hanging"> => {
  service.child.kill("SIGTERM")
  let timer: ReturnType<typeof setTimeout> | undefined
  const hanging = new Promise<"hanging">((resolve) => {
    timer = setTimeout(() => resolve("hanging"), hangingAfterMs)
  })
  const outcome = await Promise.race([service.exited, hanging]).finally(() => clearTimeout(timer))
  if (outcome !== "hanging") running.delete(service)
  return outcome
}

const bookLines = (book: string, prefix: string) =>
  readFileSync(book, { encoding: "utf8", flag: "a+" })
    .split("\n")
    .filter((line) => line.startsWith(prefix))

const untilSubmitted = async (book: string, count: number) => {
  for (let i = 0; i < 600 && bookLines(book, "submitted ").length < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  expect(bookLines(book, "submitted ").length).toBeGreaterThanOrEqual(count)
}

/** After a restart every payment completes, and the provider executed each exactly once. */
const restartFinishesAll = async (databaseUrl: string, book: string, ids: ReadonlyArray<string>) => {
  const again = await start(recordingService, {
    DATABASE_URL: databaseUrl,
    PAYMENTS_SANDBOX: "true",
    PROVIDER_BOOK: book,
  })
  expect(await awaitCompleted(databaseUrl, ids, 30_000)).toEqual(ids.map(() => "completed"))
  const executed = bookLines(book, "executed ")
  for (const id of ids) expect(executed.filter((line) => line === `executed ${id}`)).toHaveLength(1)
  expect(await terminate(again)).toBe(0)
}

/** A slow provider (2 s a payment) and eight queued payments: SIGTERM during the first one. */
const busyRunner = async (databaseUrl: string) => {
  const book = join(folder, `busy-${Date.now()}.txt`)
  const ids = await queuePayments(databaseUrl, 8, "busy")
  const env = { DATABASE_URL: databaseUrl, PAYMENTS_SANDBOX: "true", PROVIDER_BOOK: book }
  const service = await start(recordingService, { ...env, PROVIDER_DELAY_MS: "2000" })
  await untilSubmitted(book, 1)
  expect(await terminate(service)).toBe(0)
  // The runner took no job after the signal: those in hand at most (it runs five at once, the
  // engine's default batch concurrency), when a runner that kept going would take all eight.
  expect(bookLines(book, "submitted ").length).toBeLessThanOrEqual(defaultBatchExecution.concurrency)
  await restartFinishesAll(databaseUrl, book, ids)
}

/** A provider call that never answers: the shutdown ends at its grace, and the next start finishes the payment. */
const stuckJob = async (databaseUrl: string) => {
  const book = join(folder, `stuck-${Date.now()}.txt`)
  const ids = await queuePayments(databaseUrl, 3, "stuck")
  const env = { DATABASE_URL: databaseUrl, PAYMENTS_SANDBOX: "true", PROVIDER_BOOK: book }
  const service = await start(recordingService, { ...env, HANG_ON_SUBMISSION: "1" })
  await untilSubmitted(book, 1)
  expect(await terminate(service)).toBe(0)
  expect(service.lines.some(logMessage(shutdownCutShortWarning))).toBe(true)
  await restartFinishesAll(databaseUrl, book, ids)
}

describe("SIGTERM with a busy job runner", () => {
  it("on SQLite, exits 0 without taking another job, and a restart completes the rest once", async () => {
    await busyRunner(`sqlite:${join(folder, "busy.sqlite")}`)
  }, 90_000)

  it("on SQLite, exits 0 at the grace when a job never ends, and a restart completes it once", async () => {
    await stuckJob(`sqlite:${join(folder, "stuck.sqlite")}`)
  }, 90_000)

  it.skipIf(serverUrl === undefined)(
    "on Postgres (graphile-worker), exits 0 without taking another job, and a restart completes the rest once",
    async () => {
      await busyRunner(postgresUrl("busy"))
    },
    90_000,
  )

  it.skipIf(serverUrl === undefined)(
    "on Postgres (graphile-worker), exits 0 at the grace when a job never ends, and a restart completes it once",
    async () => {
      await stuckJob(postgresUrl("stuck"))
    },
    120_000,
  )
})

describe("SIGTERM when standard output has gone", () => {
  it("exits 0 although its log lines cannot be written", async () => {
    const service = await start(main, { DATABASE_URL: `sqlite:${join(folder, "closed-stdout.sqlite")}` })
    service.child.stdout?.destroy()
    expect(await terminate(service)).toBe(0)
  }, 60_000)
})
