import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientErrorMessage } from "../src/binding/client-errors.ts"
import { createLogger } from "../src/binding/logger.ts"
import { loadConfig } from "../src/service/config.ts"
import { type RunningService, startService } from "../src/service/server.ts"
import { rawExchange, requestHead } from "./support/raw-http.ts"
import { fastHasher } from "./support/test-service.ts"

/*
 * Requests a client sends broken (not HTTP, headers over Node's limit, a broken chunk) are the
 * client's fault: the service answers them as Node does, and logs them at `info` with their
 * parser code, never at `error`, where an operator looks for the service's own failures.
 */
const folder = mkdtempSync(join(tmpdir(), "pe-client-errors-"))
const lines: Array<string> = []
let service: RunningService
beforeAll(async () => {
  service = await startService(
    loadConfig({
      PORT: "0",
      DATABASE_URL: `sqlite:${join(folder, "payments.sqlite")}`,
      PAYMENTS_JWT_SECRET: "client-errors-test-secret-0123456789abcdef",
      PAYMENTS_API_KEY: "pk_client_errors",
      PAYMENTS_API_SECRET: "sk_client_errors_secret",
    }),
    {
      logger: createLogger({ level: "trace", destination: { write: (line: string) => void lines.push(line) } }),
      hasher: fastHasher(),
      host: "127.0.0.1",
    },
  )
})
afterAll(async () => {
  await service.close()
  rmSync(folder, { recursive: true, force: true })
})

interface LogLine {
  readonly level: number
  readonly msg: string
  readonly err?: { readonly code?: string }
}
const logged = (from = 0): Array<LogLine> => lines.slice(from).map((line) => JSON.parse(line))
const pinoInfo = 30
const pinoError = 50

/** Waits for a line about a client error logged after the first `from` lines. */
const clientErrorAfter = async (from: number) => {
  const until = Date.now() + 5000
  for (;;) {
    const found = logged(from).find((line) => line.msg === clientErrorMessage)
    if (found !== undefined || Date.now() > until) return found
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe("a request the client sent broken", () => {
  const cases = [
    { name: "a request line that is not HTTP", bytes: ["NOT HTTP AT ALL\r\n\r\n"], status: 400 },
    {
      name: "a space in a header name",
      bytes: [requestHead("GET", "/health", ["Bad Name: x"])],
      status: 400,
    },
    {
      name: "headers over Node's limit",
      bytes: [requestHead("GET", "/health", [`X-Padding: ${"p".repeat(20_000)}`])],
      status: 431,
    },
    {
      name: "a chunk without its CRLF, after the request reached the app",
      bytes: [
        requestHead("POST", "/api/v1/sessions", ["Content-Type: application/json", "Transfer-Encoding: chunked"]),
        "2\r\n{}XX\r\n0\r\n\r\n",
      ],
      status: 400,
    },
  ]

  it.each(cases)("is answered as Node answers it and logged at info: $name", async ({ bytes, status }) => {
    const before = lines.length
    const answer = await rawExchange(service.port, bytes)
    expect(answer.status).toBe(status)
    const line = await clientErrorAfter(before)
    expect(line).toMatchObject({
      level: pinoInfo,
      msg: clientErrorMessage,
      err: { code: expect.stringMatching(/^HPE_/) },
    })
  })

  it("leaves nothing at error or above in the log, and the service serving", async () => {
    expect(logged().filter((line) => line.level >= pinoError)).toEqual([])
    expect((await fetch(`${service.url}/health`)).status).toBe(200)
  })
})
