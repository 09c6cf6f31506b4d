import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { logMessage } from "./support/child-process.ts"
import { processRig } from "./support/process-rig.ts"
import { batchOf, queueBatch, queuePayments } from "./support/queued-payments.ts"

/*
 * What an operator reads of background work in a running service's log: each job run with the
 * ids it acts on, its attempt and duration; a batch's start, its progress every 100 payments and
 * its end with counts. A real service process over a real database, its lines as written.
 */

const { folder, running, serverUrl, postgresUrl, startRecordingService: start } = processRig("job-log")

type Line = Record<string, unknown>

const databases = [
  { name: "SQLite", url: () => `sqlite:${join(folder, `lines-${Date.now()}.sqlite`)}` },
  ...(serverUrl === undefined ? [] : [{ name: "Postgres", url: () => postgresUrl("lines") }]),
]

describe.each(databases)("the job log on $name", ({ url }) => {
  it("names the batch, payments and company it acts on, counts and durations, and the batch's end", async () => {
    const databaseUrl = url()
    // 130 payments: the 100th is settled while the batch still runs, so progress is logged once.
    const { batchId } = await queueBatch(databaseUrl, 130, "log-batch")
    const [paymentId] = await queuePayments(databaseUrl, 1, "log-single")
    const service = await start({
      DATABASE_URL: databaseUrl,
      PAYMENTS_SANDBOX: "true",
      PROVIDER_BOOK: join(folder, `book-${Date.now()}.txt`),
      PAYMENTS_BATCH_RATE: "1000",
    })
    await service.waitForLine(logMessage("batch completed"))
    await service.waitForLine((line) => line.includes('"kind":"execute_payment"'))
    service.child.kill("SIGTERM")
    await service.exited
    running.delete(service)

    const lines = service.lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Line)
    const batch = await batchOf(databaseUrl, batchId)
    const ids = { workspace_id: expect.any(String), company_id: batch?.company_id, batch_id: batchId }
    const of = (msg: string) => lines.filter((line) => line.msg === msg)

    expect(of("batch started")).toEqual([
      expect.objectContaining({ ...ids, status: "processing", total: 130, succeeded: 0, failed: 0 }),
    ])
    const progress = of("batch progress")
    expect(progress).toEqual([expect.objectContaining({ ...ids, status: "processing", total: 130, failed: 0 })])
    expect(progress[0]?.succeeded).toBeGreaterThanOrEqual(100)
    expect(progress[0]?.succeeded).toBeLessThan(130)
    expect(of("batch completed")).toEqual([
      expect.objectContaining({
        ...ids,
        status: "completed",
        total: 130,
        succeeded: 130,
        failed: 0,
        duration_ms: expect.any(Number),
      }),
    ])
    const messages = lines.map((line) => line.msg)
    expect(messages.indexOf("batch started")).toBeLessThan(messages.indexOf("batch progress"))
    expect(messages.indexOf("batch progress")).toBeLessThan(messages.indexOf("batch completed"))

    const runs = of("job run")
    const run = { outcome: "done", attempt: 1, duration_ms: expect.any(Number), workspace_id: expect.any(String) }
    expect(runs).toContainEqual(expect.objectContaining({ ...run, kind: "process_batch", ...ids }))
    const lanes = runs.filter((line) => line.kind === "execute_batch_payments")
    expect(lanes.length).toBeGreaterThan(0)
    for (const lane of lanes) expect(lane).toMatchObject({ ...run, ...ids, payment_count: expect.any(Number) })
    expect(lanes.reduce((sum, lane) => sum + Number(lane.payment_count), 0)).toBe(130)
    expect(runs).toContainEqual(
      expect.objectContaining({
        ...run,
        kind: "execute_payment",
        payment_id: paymentId,
        company_id: expect.any(String),
      }),
    )
  }, 240_000)
})
