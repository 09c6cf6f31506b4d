import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Writable } from "node:stream"
import { gzipSync } from "node:zlib"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { errorLogFields } from "../src/binding/error-log-fields.ts"
import { createLogger } from "../src/binding/logger.ts"
import { childEnvironment, type LineWatcher, logMessage, startNode } from "./support/child-process.ts"
import { oneChunk, rawExchange, requestHead } from "./support/raw-http.ts"
import { acme, readResponse, startTestService } from "./support/test-service.ts"

/**
 * Secrets planted in malformed requests of every kind a raw socket can send must never reach the
 * logs: the service runs as operators run it (`main.ts`, logging at `trace` to standard output,
 * which the test reads whole), and the test greps everything it wrote.
 */
const apiKey = "pk_log_probe"
const apiSecret = "sk_PLANTED_api_secret_9c41f7"
const jwtSecret = "PLANTED-jwt-signing-secret-0123456789abcdef"
const accountNumber = "7730412298765432"
const secretBody = JSON.stringify({ api_key: apiKey, api_secret: apiSecret, account_number: accountNumber })

const folder = mkdtempSync(join(tmpdir(), "payments-engine-log-secrets-"))
let service: LineWatcher
let port: number
let token: string
beforeAll(async () => {
  service = startNode(
    ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"],
    childEnvironment({
      PORT: "0",
      LOG_LEVEL: "trace",
      DATABASE_URL: `sqlite:${join(folder, "payments.sqlite")}`,
      PAYMENTS_SANDBOX: "true",
      PAYMENTS_JWT_SECRET: jwtSecret,
      PAYMENTS_API_KEY: apiKey,
      PAYMENTS_API_SECRET: apiSecret,
    }),
  )
  const listening = JSON.parse(await service.waitForLine(logMessage("listening")))
  port = listening.port
  const session = await readResponse(
    await fetch(`${listening.url}/api/v1/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ api_key: apiKey, api_secret: apiSecret }),
    }),
  )
  token = session.body.data.access_token
})
afterAll(() => {
  service?.child.kill("SIGKILL")
  rmSync(folder, { recursive: true, force: true })
})

/**
 * A log line with the bytes of any Buffer in it as text: pino writes a Buffer as
 * `{"type":"Buffer","data":[80,79,83,84,...]}`, where a plain search would miss a secret.
 */
const readable = (line: string): string => {
  try {
    const decoded = JSON.parse(line, (_key, value) =>
      value?.type === "Buffer" && Array.isArray(value.data) ? Buffer.from(value.data).toString("latin1") : value,
    )
    return `${line}\n${JSON.stringify(decoded)}`
  } catch {
    return line
  }
}

/** Headers carrying the bearer token and the API secret, and a request id to find the log line by. */
const secretHeaders = (probe: string) => [
  `Authorization: Bearer ${token}`,
  `X-Api-Secret: ${apiSecret}`,
  `X-Account-Number: ${accountNumber}`,
  `X-Request-Id: ${probe}`,
]
const postHead = (probe: string, headers: ReadonlyArray<string>, path = "/api/v1/companies") =>
  requestHead("POST", path, [...secretHeaders(probe), ...headers])
const json = "Content-Type: application/json"
const length = (body: string | Uint8Array) => `Content-Length: ${Buffer.byteLength(body)}`

/** Each malformed request, as the bytes a client writes, and how the service must answer it. */
const malformed = (): Array<{ name: string; bytes: Array<string | Uint8Array>; status?: number; abort?: true }> => [
  {
    name: "a chunk without its CRLF",
    bytes: [
      postHead("probe-chunk-crlf", [json, "Transfer-Encoding: chunked"], "/api/v1/sessions"),
      `${Buffer.byteLength(secretBody).toString(16)}\r\n${secretBody}XX${secretBody}\r\n0\r\n\r\n`,
    ],
    status: 400,
  },
  {
    name: "a chunk size that is not hex",
    bytes: [postHead("probe-chunk-size", [json, "Transfer-Encoding: chunked"]), `zz\r\n${secretBody}\r\n0\r\n\r\n`],
    status: 400,
  },
  {
    name: "a Content-Length that is not a number",
    bytes: [postHead("probe-length-text", [json, "Content-Length: 12abc"]), secretBody],
    status: 400,
  },
  {
    name: "two different Content-Lengths",
    bytes: [postHead("probe-length-twice", [json, length(secretBody), "Content-Length: 3"]), secretBody],
    status: 400,
  },
  {
    name: "Content-Length and Transfer-Encoding together",
    bytes: [postHead("probe-smuggle", [json, length(secretBody), "Transfer-Encoding: chunked"]), secretBody],
    status: 400,
  },
  {
    name: "a Content-Length shorter than the body, the rest read as a second request",
    bytes: [postHead("probe-length-short", [json, "Content-Length: 2"]), `{}${secretBody}\r\n\r\n`],
    status: 400,
  },
  {
    name: "headers over Node's limit",
    bytes: [postHead("probe-big-headers", [json, `X-Padding: ${apiSecret.repeat(1_000)}`, length(secretBody)])],
    status: 431,
  },
  {
    name: "a control character in a header value",
    bytes: [postHead("probe-header-char", [json, `X-Bad: a\x01${apiSecret}`, length(secretBody)]), secretBody],
    status: 400,
  },
  {
    name: "a space in a header name",
    bytes: [postHead("probe-header-name", [json, `Bad Name: ${apiSecret}`, length(secretBody)]), secretBody],
    status: 400,
  },
  {
    name: "a request line that is not HTTP",
    bytes: [`${apiSecret} /${accountNumber} HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n\r\n`],
    status: 400,
  },
  {
    name: "malformed JSON",
    bytes: (() => {
      const body = `${secretBody.slice(0, -1)},"${token}":}`
      return [postHead("probe-bad-json", [json, length(body)], "/api/v1/sessions"), body]
    })(),
    status: 400,
  },
  {
    name: "a body that is not JSON",
    bytes: [postHead("probe-not-json", ["Content-Type: text/plain", length(secretBody)]), secretBody],
    status: 415,
  },
  {
    name: "a compressed body",
    bytes: (() => {
      const body = gzipSync(secretBody)
      return [postHead("probe-gzip", [json, "Content-Encoding: gzip", length(body)]), body]
    })(),
    status: 415,
  },
  {
    name: "a gzip transfer coding",
    bytes: (() => {
      const body = gzipSync(secretBody)
      return [postHead("probe-gzip-chunked", [json, "Transfer-Encoding: gzip, chunked"]), ...oneChunk(body)]
    })(),
    status: 415,
  },
  {
    name: "a body over the limit",
    bytes: (() => {
      const body = `{"padding":"${secretBody.replaceAll('"', "'").repeat(20_000)}"}`
      return [postHead("probe-huge", [json, "Transfer-Encoding: chunked"]), ...oneChunk(body)]
    })(),
    status: 413,
  },
  {
    name: "nesting past the limit",
    bytes: (() => {
      const body = `${"[".repeat(1_000)}${JSON.stringify(secretBody)}${"]".repeat(1_000)}`
      return [postHead("probe-deep", [json, length(body)]), body]
    })(),
    status: 400,
  },
  {
    name: "a forged bearer token",
    bytes: [
      requestHead("GET", `/api/v1/companies?api_secret=${apiSecret}&account=${accountNumber}`, [
        `Authorization: Bearer ${token.slice(0, -4)}AAAA`,
        "X-Request-Id: probe-forged",
      ]),
    ],
    status: 401,
  },
  {
    name: "a request aborted halfway through its body",
    bytes: [postHead("probe-aborted", [json, "Content-Length: 100000"]), secretBody],
    abort: true,
  },
]

describe("logs under malformed requests", () => {
  it("never carry a planted secret, token or account number", async () => {
    for (const request of malformed()) {
      const answer = await rawExchange(port, request.bytes, request.abort ? { abort: true } : {})
      if (request.status !== undefined)
        expect({ name: request.name, status: answer.status }).toEqual({
          name: request.name,
          status: request.status,
        })
    }
    // Every request that reached the app is finished and logged, also when its socket broke.
    const reachedApp = [
      "probe-chunk-crlf",
      "probe-chunk-size",
      "probe-length-short",
      "probe-bad-json",
      "probe-not-json",
      "probe-gzip",
      "probe-gzip-chunked",
      "probe-huge",
      "probe-deep",
      "probe-forged",
      "probe-aborted",
    ]
    for (const probe of reachedApp) {
      await service.waitForLine((line) => logMessage("request")(line) && line.includes(`"request_id":"${probe}"`))
    }
    // The broken chunk's parser error, which carries the raw request, is logged by its code, at
    // info: the client's fault, not the service's.
    const failed = JSON.parse(
      await service.waitForLine((line) => logMessage("client error")(line) && line.includes("probe-chunk-crlf")),
    )
    expect(failed).toMatchObject({ level: 30, err: { type: "Error", code: expect.stringMatching(/^HPE_/) } })
    const log = `${service.lines.map(readable).join("\n")}\n${service.stderr()}`
    const signature = token.split(".")[2] ?? ""
    const planted = { apiSecret, accountNumber, token, signature, jwtSecret }
    expect(Object.entries(planted).filter(([, secret]) => log.includes(secret))).toEqual([])
  })
})

describe("error log fields", () => {
  const parserError = () =>
    // A message line may look like a stack frame.
    Object.assign(new Error(`Parse Error: ${apiSecret}\n    at ${accountNumber}`), {
      code: "HPE_INVALID_CHUNK_SIZE",
      reason: "Invalid character in chunk size",
      bytesParsed: 12,
      rawPacket: Buffer.from(`POST / HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n\r\n${secretBody}`),
    })

  it("keeps the type, code, status and stack frames of a foreign error, never its message or extras", () => {
    const fields = errorLogFields(parserError())
    expect(Object.keys(fields).sort()).toEqual(["code", "stack", "type"])
    expect(fields).toMatchObject({
      type: "Error",
      code: "HPE_INVALID_CHUNK_SIZE",
      stack: expect.stringMatching(/^\s+at /),
    })
    for (const secret of [apiSecret, accountNumber, token]) expect(JSON.stringify(fields)).not.toContain(secret)
    expect(errorLogFields(Object.assign(new Error("x"), { code: apiSecret })).code).toBeUndefined()
  })

  it("are all the logger keeps of an error handed to it as it is, under any key, with or without a message", () => {
    const lines: Array<string> = []
    const destination = new Writable({ write: (chunk, _, done) => done(void lines.push(`${chunk}`)) })
    const logger = createLogger({ destination })
    logger.error(parserError())
    logger.error({ err: parserError() })
    logger.error({ err: parserError() }, "under err")
    logger.error({ request_id: "r", error: parserError() }, "under another key")
    logger.child({ component: "child" }).warn(parserError(), "from a child logger")
    expect(lines).toHaveLength(5)
    for (const line of lines) {
      const { err, error } = JSON.parse(line)
      expect(err ?? error).toMatchObject({ type: "Error", code: "HPE_INVALID_CHUNK_SIZE" })
      for (const secret of [apiSecret, token, accountNumber]) expect(line).not.toContain(secret)
    }
  })

  it("logs an unexpected error's class and frames, not its message, properties or cause", async () => {
    const sqlite = openTestSqlite()
    const test = await startTestService({
      storage: await sqlite.factory(),
      wrapEngine: (engine) => ({
        ...engine,
        companies: {
          ...engine.companies,
          create: () =>
            Promise.reject(
              Object.assign(new TypeError(`cannot store ${accountNumber}`), {
                detail: apiSecret,
                cause: Object.assign(new Error(token), { code: "SQLITE_CONSTRAINT" }),
              }),
            ),
        },
      }),
    })
    try {
      const bearer = await test.signIn("acme")
      const answer = await test.request("POST", "/api/v1/companies", { token: bearer, body: acme })
      expect(answer.status).toBe(500)
      const logged = test.logs.map((line) => JSON.parse(line)).find((line) => line.msg === "unexpected error")
      expect(logged.err).toEqual({
        type: "TypeError",
        stack: expect.stringMatching(/^\s+at /),
        cause: { type: "Error", code: "SQLITE_CONSTRAINT", stack: expect.stringMatching(/^\s+at /) },
      })
      const all = test.logs.join("")
      for (const secret of [accountNumber, apiSecret, token, bearer]) expect(all).not.toContain(secret)
    } finally {
      await test.close()
      await sqlite.close()
    }
  })
})
