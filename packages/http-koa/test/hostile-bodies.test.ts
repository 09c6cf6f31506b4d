import { gzipSync } from "node:zlib"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { maxJsonDepth } from "@payments-engine/core"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { childEnvironment, type LineWatcher, logMessage, startNode } from "./support/child-process.ts"
import { oneChunk, rawExchange, requestHead } from "./support/raw-http.ts"
import { acme, startTestService, type TestService } from "./support/test-service.ts"

/**
 * Bodies built to hurt, sent over real sockets: nesting deep enough to stall a walk that is not
 * linear, transfer codings that would hand compressed bytes to JSON.parse, and connections that
 * break while a body is read.
 */
const sqlite = openTestSqlite()
afterAll(sqlite.close)

let service: TestService
let token: string
let port: number
/** Runs the tests of the calling `describe` against a fresh app on a real socket. */
const withService = () => {
  beforeEach(async () => {
    service = await startTestService({ storage: await sqlite.factory() })
    token = await service.signIn("acme")
    port = Number(new URL(service.url).port)
  })
  afterEach(() => service.close())
}

const tooDeep = { field: "body", message: `JSON is nested too deeply (at most ${maxJsonDepth} levels)` }
const post = (path: string, raw: string) =>
  service.request("POST", path, { token, raw, headers: { "Content-Type": "application/json" } })
/** A valid company with one more property, which the engine ignores. */
const companyWith = (extra: string) => `${JSON.stringify(acme).slice(0, -1)},"extra":${extra}}`
const json = "Content-Type: application/json"
const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`

describe("a service process sent 100,000 levels of nesting", () => {
  // A process of its own: were the body walked in more than linear time, its event loop would
  // stall, not the test's, and the test would fail by its timeout instead of hanging with it.
  let child: LineWatcher
  let childPort: number
  beforeAll(async () => {
    child = startNode(
      ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"],
      childEnvironment({ PORT: "0", DATABASE_URL: "sqlite::memory:", PAYMENTS_SANDBOX: "true" }),
    )
    childPort = JSON.parse(await child.waitForLine(logMessage("listening"))).port
  })
  afterAll(() => {
    child?.child.kill("SIGKILL")
  })

  it("answers the 200 KB body 400 while /health keeps answering", async () => {
    const body = nested(100_000)
    const [session, health] = await Promise.all([
      rawExchange(childPort, [requestHead("POST", "/api/v1/sessions", [json, `Content-Length: ${body.length}`]), body]),
      rawExchange(childPort, requestHead("GET", "/health", [])),
    ])
    expect({ status: session.status, body: JSON.parse(session.body) }).toEqual({
      status: 400,
      body: { errors: [tooDeep] },
    })
    expect(health.status).toBe(200)
  })

  it("refuses deep objects as deep arrays", async () => {
    const body = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`
    const answer = await rawExchange(childPort, [
      requestHead("POST", "/api/v1/sessions", [json, `Content-Length: ${body.length}`]),
      body,
    ])
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({
      status: 400,
      body: { errors: [tooDeep] },
    })
  })
})

describe("deeply nested bodies", () => {
  withService()

  it(`accepts exactly ${maxJsonDepth} levels and refuses one more`, async () => {
    // The company object is the first level.
    const deepest = await post("/api/v1/companies", companyWith(nested(maxJsonDepth - 1)))
    expect(deepest.status).toBe(201)
    const over = await post("/api/v1/companies", companyWith(nested(maxJsonDepth)))
    expect({ status: over.status, errors: over.body.errors }).toEqual({ status: 400, errors: [tooDeep] })
  })

  it("does not count brackets inside strings, escaped quotes and backslashes included", async () => {
    const text = `"${"[{".repeat(50_000)}\\"${"[".repeat(1_000)}\\\\`
    const created = await post("/api/v1/companies", companyWith(JSON.stringify(text)))
    expect(created.status).toBe(201)
    const keys = `{${Array.from({ length: 100 }, (_, i) => `"[[${i}{{": ${nested(2)}`).join(",")}}`
    expect((await post("/api/v1/companies", companyWith(keys))).status).toBe(201)
  })

  it("still finds the NUL character at the end of a long, deep path", async () => {
    const value = `${'{"a":['.repeat(31)}"x\\u0000"${"]}".repeat(31)}`
    const answer = await post("/api/v1/companies", companyWith(value))
    expect(answer.status).toBe(422)
    expect(answer.body.errors[0].field).toBe(`extra${".a.0".repeat(31)}`)
  })
})

describe("transfer codings", () => {
  withService()
  const company = JSON.stringify(acme)
  const chunkedPost = (transferEncoding: ReadonlyArray<string>, data: string | Uint8Array) =>
    rawExchange(port, [
      requestHead("POST", "/api/v1/companies", [
        `Authorization: Bearer ${token}`,
        "Content-Type: application/json",
        ...transferEncoding.map((value) => `Transfer-Encoding: ${value}`),
      ]),
      ...oneChunk(data),
    ])
  const refused = { errors: [{ field: "body", message: "Transfer-Encoding must be chunked" }] }

  it("answers 415 body for gzip, chunked, as for Content-Encoding: gzip", async () => {
    const answer = await chunkedPost(["gzip, chunked"], gzipSync(company))
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 415, body: refused })
  })

  it("answers 415 for any transfer coding before chunked, also in a header of its own", async () => {
    for (const codings of [["deflate, chunked"], ["identity, chunked"], ["gzip", "chunked"], ["x-custom, chunked"]]) {
      const answer = await chunkedPost(codings, company)
      expect({ codings, status: answer.status, body: JSON.parse(answer.body) }).toEqual({
        codings,
        status: 415,
        body: refused,
      })
    }
  })

  it("never reads a body chunked twice: Node's parser refuses it with 400 first", async () => {
    expect((await chunkedPost(["chunked, chunked"], company)).status).toBe(400)
  })

  it("takes a plain chunked body, in any letter case", async () => {
    for (const coding of ["chunked", "Chunked", " CHUNKED "]) {
      expect({ coding, status: (await chunkedPost([coding], company)).status }).toEqual({ coding, status: 201 })
    }
  })
})

describe("bodies cut off by a broken connection", () => {
  withService()

  it("are finished and logged even when the socket broke before the body was read", async () => {
    const head = (probe: string, headers: ReadonlyArray<string>) =>
      requestHead("POST", "/api/v1/companies", [
        `Authorization: Bearer ${token}`,
        `X-Request-Id: ${probe}`,
        json,
        ...headers,
      ])
    // A chunk size Node cannot read, and a second request that is not HTTP on the same socket:
    // the parser breaks the connection while the app still checks the token.
    await rawExchange(port, [head("cut-chunk-size", ["Transfer-Encoding: chunked"]), "zz\r\n{}\r\n0\r\n\r\n"])
    await rawExchange(port, [head("cut-next-request", ["Content-Length: 2"]), "{}NOT HTTP\r\n\r\n"])
    await rawExchange(port, [head("cut-aborted", ["Content-Length: 1000"]), "{"], { abort: true })
    await vi.waitFor(() => {
      const finished = service.logs.map((line) => JSON.parse(line)).filter((line) => line.msg === "request")
      expect(finished.map((line) => line.request_id)).toEqual(
        expect.arrayContaining(["cut-chunk-size", "cut-next-request", "cut-aborted"]),
      )
    }, 10_000)
  })
})
