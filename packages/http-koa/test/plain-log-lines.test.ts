import { describe, expect, it } from "vitest"
import { createLogger, plainLines } from "../src/binding/logger.ts"

// The access log's lines skip pino's hook and redaction: they must still be the lines pino writes.

const capture = (level: "info" | "error" = "info") => {
  const lines: Array<string> = []
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } })
  return { logger, lines }
}

const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"')

describe("plain log lines", () => {
  it("are byte for byte the lines pino writes, but for the time", () => {
    const { logger, lines } = capture()
    const fields = {
      request_id: "req_1",
      method: "GET",
      path: '/api/v1/"quoted"\\back/\u00e9t\u00e9/%00',
      status: 200,
      ms: 1.5,
      absent: undefined,
      // Numbers are written without JSON.stringify: as it writes them, not finite ones as null.
      not_finite: Number.NaN,
      infinite: Number.POSITIVE_INFINITY,
      large: 1e21,
      small: -2.5e-7,
      negative_zero: -0,
    }
    logger.info(fields, "request")
    plainLines(logger)("info", fields, "request")
    logger.error({ ...fields, status: 503 }, "request")
    plainLines(logger)("error", { ...fields, status: 503 }, "request")
    expect(lines).toHaveLength(4)
    expect(withoutTime(lines[1] ?? "")).toBe(withoutTime(lines[0] ?? ""))
    expect(withoutTime(lines[3] ?? "")).toBe(withoutTime(lines[2] ?? ""))
    expect(JSON.parse(lines[1] ?? "")).toMatchObject({ level: 30, service: "payments-engine", path: fields.path })
    expect(JSON.parse(lines[3] ?? "").level).toBe(50)
    expect(new Date(JSON.parse(lines[1] ?? "").time).toISOString()).toBe(JSON.parse(lines[1] ?? "").time)
  })

  it("follow the logger's level, also when it changes", () => {
    const { logger, lines } = capture("error")
    const write = plainLines(logger)
    write("info", { status: 200 }, "request")
    write("error", { status: 500 }, "request")
    logger.level = "info"
    write("info", { status: 201 }, "request")
    expect(lines.map((line) => JSON.parse(line).status)).toEqual([500, 201])
  })

  it("go through any other logger's own methods", () => {
    const { logger, lines } = capture()
    const child = logger.child({ component: "api" })
    plainLines(child)("info", { status: 200 }, "request")
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ component: "api", status: 200, msg: "request" })
  })
})
