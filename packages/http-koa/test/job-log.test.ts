import { brandId } from "@payments-engine/core"
import { describe, expect, it } from "vitest"
import { createLogger } from "../src/binding/logger.ts"
import { jobLogTo } from "../src/service/job-log.ts"

/** The JSON lines a logger at `level` writes for `events`. */
const linesFor = (level: "info" | "debug", events: ReadonlyArray<Parameters<ReturnType<typeof jobLogTo>>[0]>) => {
  const lines: Array<Record<string, unknown>> = []
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(JSON.parse(line)) } })
  const log = jobLogTo(logger)
  for (const event of events) log(event)
  return lines.map(({ level: l, kind, outcome, msg }) => ({ level: l, kind, outcome, msg }))
}

describe("the service's log of background work", () => {
  const events = [
    { kind: "settle_unknown_payments", outcome: "done" },
    { kind: "execute_payment", outcome: "done" },
    { kind: "settle_unknown_payments", outcome: "retry", error: "ProviderFailure: down" },
    { kind: "purge_idempotency", outcome: "done" },
  ] as const

  it("keeps a scheduled upkeep job's successful runs out of the info log, and every other run in it", () => {
    expect(linesFor("info", events)).toEqual([
      { level: 30, kind: "execute_payment", outcome: "done", msg: "job run" },
      { level: 30, kind: "settle_unknown_payments", outcome: "retry", msg: "job run" },
    ])
    expect(linesFor("debug", events).map((line) => [line.kind, line.level])).toEqual([
      ["settle_unknown_payments", 20],
      ["execute_payment", 30],
      ["settle_unknown_payments", 30],
      ["purge_idempotency", 20],
    ])
  })

  it("logs a payment's creation and outcome at debug only, with its ids and time to outcome", () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = createLogger({
      level: "debug",
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    })
    const log = jobLogTo(logger)
    const ids = {
      workspaceId: brandId("ws", "ws_1"),
      companyId: brandId("cmp", "cmp_1"),
      paymentId: brandId("pay", "pay_1"),
      batched: false,
    }
    log({ payment: "created", ...ids })
    log({ payment: "failed", ...ids, durationMs: 1500 })
    expect(lines.map(({ time: _t, pid: _p, hostname: _h, service: _s, ...line }) => line)).toEqual([
      { level: 20, workspace_id: "ws_1", company_id: "cmp_1", payment_id: "pay_1", msg: "payment created" },
      {
        level: 20,
        workspace_id: "ws_1",
        company_id: "cmp_1",
        payment_id: "pay_1",
        duration_ms: 1500,
        msg: "payment failed",
      },
    ])
  })

  it("logs a webhook endpoint's circuit opening and closing at warn, with ids and counts only", () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = createLogger({
      level: "info",
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    })
    const log = jobLogTo(logger)
    const ids = { workspaceId: brandId("ws", "ws_1"), endpointId: brandId("we", "we_1") }
    log({ circuit: "opened", ...ids, consecutiveFailures: 5, until: "2030-01-01T00:01:00.000Z" })
    log({ circuit: "closed", ...ids, consecutiveFailures: 0, until: null })
    expect(lines.map(({ time: _t, pid: _p, hostname: _h, service: _s, ...line }) => line)).toEqual([
      {
        level: 40,
        workspace_id: "ws_1",
        endpoint_id: "we_1",
        consecutive_failures: 5,
        circuit_open_until: "2030-01-01T00:01:00.000Z",
        msg: "webhook endpoint circuit opened",
      },
      {
        level: 40,
        workspace_id: "ws_1",
        endpoint_id: "we_1",
        consecutive_failures: 0,
        circuit_open_until: null,
        msg: "webhook endpoint circuit closed",
      },
    ])
  })

  it("logs a failure of the runner itself as an error", () => {
    expect(linesFor("info", [{ error: new Error("connection refused") }])).toEqual([
      { level: 50, kind: undefined, outcome: undefined, msg: "job runner failed" },
    ])
  })

  it("writes a run's attempt, duration and payload ids, and only the allow-listed ones", () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = createLogger({
      level: "info",
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    })
    const smuggled = { batch_id: "pb_1", workspace_id: "ws_1", payment_count: 3, account_number: "12345678" }
    jobLogTo(logger)({ kind: "execute_batch_payments", outcome: "done", attempt: 2, durationMs: 41, fields: smuggled })
    expect(lines.map(({ time: _t, pid: _p, hostname: _h, service: _s, ...line }) => line)).toEqual([
      {
        level: 30,
        kind: "execute_batch_payments",
        outcome: "done",
        attempt: 2,
        duration_ms: 41,
        workspace_id: "ws_1",
        batch_id: "pb_1",
        payment_count: 3,
        msg: "job run",
      },
    ])
  })

  it("logs a batch's start, progress and end at info with its ids and counts", () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = createLogger({
      level: "info",
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    })
    const batch = {
      workspaceId: brandId("ws", "ws_1"),
      companyId: brandId("cmp", "cmp_1"),
      batchId: brandId("pb", "pb_1"),
      total: 250,
    }
    const log = jobLogTo(logger)
    log({ batch: "started", ...batch, status: "processing", succeeded: 0, failed: 0 })
    log({ batch: "progress", ...batch, status: "processing", succeeded: 99, failed: 2 })
    log({
      batch: "completed",
      ...batch,
      status: "completed_with_failures",
      succeeded: 240,
      failed: 10,
      durationMs: 12_500,
    })
    const ids = { workspace_id: "ws_1", company_id: "cmp_1", batch_id: "pb_1", total: 250 }
    expect(lines.map(({ time: _t, pid: _p, hostname: _h, service: _s, ...line }) => line)).toEqual([
      { level: 30, ...ids, status: "processing", succeeded: 0, failed: 0, msg: "batch started" },
      { level: 30, ...ids, status: "processing", succeeded: 99, failed: 2, msg: "batch progress" },
      {
        level: 30,
        ...ids,
        status: "completed_with_failures",
        succeeded: 240,
        failed: 10,
        duration_ms: 12_500,
        msg: "batch completed",
      },
    ])
  })
})
