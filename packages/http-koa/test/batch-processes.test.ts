import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { processRig } from "./support/process-rig.ts"
import { awaitBatchEnded, awaitCompleted, batchOf, queueBatch, queuePayments } from "./support/queued-payments.ts"

/*
 * Batches across real processes: a service killed with SIGKILL in the middle of a 500-payment
 * batch and started again finishes it with exact counts, each payment executed once by the
 * provider (whose books outlive our processes); and two services on one Postgres database share
 * a batch and single payments, each payment executed once, within the batch's rate overall.
 */

const { folder, running, serverUrl, postgresUrl, startRecordingService: start } = processRig("batches")

const stop = async (service: Awaited<ReturnType<typeof start>>, signal: NodeJS.Signals) => {
  service.child.kill(signal)
  await service.exited
  running.delete(service)
}

/** The provider's book: `submitted <id> by <pid> at <ms>` and `executed <id>` lines. */
const bookOf = (book: string) => {
  const lines = readFileSync(book, { encoding: "utf8", flag: "a+" }).split("\n")
  const submitted = lines
    .filter((line) => line.startsWith("submitted "))
    .map((line) => {
      const [, id, , pid, , at] = line.split(" ")
      return { id: id!, pid: pid!, at: Number(at) }
    })
  const executed = lines.filter((line) => line.startsWith("executed ")).map((line) => line.slice("executed ".length))
  return { submitted, executed }
}

const untilSubmitted = async (book: string, count: number) => {
  for (let i = 0; i < 1200 && bookOf(book).submitted.length < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  expect(bookOf(book).submitted.length).toBeGreaterThanOrEqual(count)
}

/** Every payment executed exactly once by the provider. */
const expectExecutedOnce = (book: string, paymentIds: ReadonlyArray<string>) => {
  const { executed } = bookOf(book)
  expect(executed).toHaveLength(paymentIds.length)
  expect(new Set(executed)).toEqual(new Set(paymentIds))
}

const crashMidBatch = async (databaseUrl: string) => {
  const book = join(folder, `crash-${Date.now()}.txt`)
  const { batchId, paymentIds } = await queueBatch(databaseUrl, 500, "crash-batch")
  // A fast rate, so the test does not wait out 25 s of the default's: the rate is not its subject.
  const env = { DATABASE_URL: databaseUrl, PAYMENTS_SANDBOX: "true", PROVIDER_BOOK: book, PAYMENTS_BATCH_RATE: "1000" }
  const first = await start({ ...env, HANG_ON_SUBMISSION: "150" })
  await untilSubmitted(book, 150)
  await stop(first, "SIGKILL")
  const cut = await batchOf(databaseUrl, batchId)
  expect(cut?.status).toBe("processing")
  expect((cut?.succeeded_count ?? 0) + (cut?.failed_count ?? 0)).toBeLessThan(500)

  const second = await start(env)
  const restarted = Date.now()
  const ended = await awaitBatchEnded(databaseUrl, batchId, 30_000)
  expect(Date.now() - restarted).toBeLessThan(30_000)
  expect(ended).toMatchObject({ status: "completed", total_count: 500, succeeded_count: 500, failed_count: 0 })
  expectExecutedOnce(book, paymentIds)
  await stop(second, "SIGTERM")
}

describe("a service killed with SIGKILL in the middle of a 500-payment batch", () => {
  it("on SQLite, finishes the batch after the restart with exact counts, executing no payment twice", async () => {
    await crashMidBatch(`sqlite:${join(folder, "crash.sqlite")}`)
  }, 120_000)

  it.skipIf(serverUrl === undefined)(
    "on Postgres (graphile-worker), finishes the batch within 30 s of the restart with exact counts, executing no payment twice",
    async () => {
      await crashMidBatch(postgresUrl("crash"))
    },
    150_000,
  )
})

describe("two services on one Postgres database", () => {
  it.skipIf(serverUrl === undefined)(
    "share a batch and single payments: each payment executed once, both did work, and the batch's rate holds across them",
    async () => {
      const databaseUrl = postgresUrl("shared")
      const book = join(folder, `shared-${Date.now()}.txt`)
      const perSecond = 20
      const env = {
        DATABASE_URL: databaseUrl,
        PAYMENTS_SANDBOX: "true",
        PROVIDER_BOOK: book,
        PAYMENTS_BATCH_RATE: String(perSecond),
        // Two lanes of 20 payments (2 s at the rate) at a time, and two workers a service: the batch's later lanes
        // and the singles wait in the queue while the first service started is busy, for
        // whichever service is free.
        PAYMENTS_BATCH_CONCURRENCY: "2",
        // A provider as slow as a real one keeps both services' workers busy at once.
        PROVIDER_DELAY_MS: "40",
      }
      // Both services wait for work before any is queued, so that neither finds it all alone.
      const services = [await start(env), await start(env)]
      const { batchId, paymentIds } = await queueBatch(databaseUrl, 100, "shared-batch")
      const singles = await queuePayments(databaseUrl, 20, "shared-singles")
      const ended = await awaitBatchEnded(databaseUrl, batchId, 60_000)
      expect(ended).toMatchObject({ status: "completed", succeeded_count: 100, failed_count: 0 })
      expect(await awaitCompleted(databaseUrl, singles, 30_000)).toEqual(singles.map(() => "completed"))
      expectExecutedOnce(book, [...paymentIds, ...singles])
      const { submitted } = bookOf(book)
      expect(new Set(submitted.map((s) => s.pid)).size).toBe(2)
      // Each payment waited for its own start slot, one slot 1/rate after the other, whichever
      // service took it: any 40 consecutive starts span at least 39 slots (less a scheduler's
      // few milliseconds), where the batch's two lanes with no limit start 40
      // within about 0.9 s (measured with the limit planted away).
      const batched = new Set(paymentIds)
      const starts = submitted
        .filter((s) => batched.has(s.id))
        .map((s) => s.at)
        .sort((a, b) => a - b)
      const interval = 1000 / perSecond
      for (let i = 0; i + 40 < starts.length; i += 10) {
        expect(starts[i + 40]! - starts[i]!).toBeGreaterThanOrEqual(39 * interval - 25)
      }
      for (const service of services) await stop(service, "SIGTERM")
    },
    120_000,
  )
})
