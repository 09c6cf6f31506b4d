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
})
