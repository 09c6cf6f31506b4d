import { gzipSync } from "node:zlib"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import type { Engine } from "@payments-engine/core"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { acme, readResponse, startTestService, type TestService } from "./support/test-service.ts"

const sqlite = openTestSqlite()
afterAll(sqlite.close)

let service: TestService
let token: string
const start = async (wrapEngine?: (engine: Engine) => Engine) => {
  service = await startTestService({ storage: await sqlite.factory(), ...(wrapEngine ? { wrapEngine } : {}) })
  token = await service.signIn("acme")
}
afterEach(() => service.close())

const postRaw = (raw: string | Uint8Array, headers: Record<string, string>, path = "/api/v1/companies") =>
  service.request("POST", path, { token, raw, headers })

describe("request bodies", () => {
  beforeEach(() => start())

  it("answers 400 body / Malformed JSON, also before authentication is checked for sessions", async () => {
    for (const raw of ["{bad", '{"name": }', "[1,", "'single'", "undefined", '{"a":1}}']) {
      expectError(await postRaw(raw, { "Content-Type": "application/json" }), 400, "body", "Malformed JSON")
    }
    expectError(
      await service.request("POST", "/api/v1/sessions", { raw: "{", headers: { "Content-Type": "application/json" } }),
      400,
      "body",
      "Malformed JSON",
    )
  })

  it("answers 415 for a body that is not declared as JSON", async () => {
    const json = JSON.stringify(acme)
    const notJson = "Content-Type must be application/json"
    expectError(await postRaw(json, { "Content-Type": "text/plain" }), 415, "body", notJson)
    expectError(await postRaw(json, { "Content-Type": "application/x-www-form-urlencoded" }), 415, "body", notJson)
    expectError(await postRaw(new TextEncoder().encode(json), {}), 415, "body", notJson)
    expectError(await postRaw(json, { "Content-Type": "application/jsonx" }), 415, "body", notJson)
    expectError(
      await postRaw(gzipSync(json), { "Content-Type": "application/json", "Content-Encoding": "gzip" }),
      415,
      "body",
      "Content-Encoding must be identity",
    )
    expect((await postRaw(json, { "Content-Type": "application/json; charset=utf-8" })).status).toBe(201)
    expect((await postRaw(json, { "Content-Type": "Application/JSON" })).status).toBe(201)
    expect((await postRaw(json, { "Content-Type": "application/vnd.api+json" })).status).toBe(201)
  })

  it("treats an empty body as {}", async () => {
    const created = await service.request("POST", "/api/v1/companies", { token })
    expect(created.status).toBe(400)
    expect(created.body.errors.map((e: { field: string }) => e.field)).toEqual(["name", "country", "default_currency"])
    expect((await postRaw("", { "Content-Type": "text/plain" })).status).toBe(400)
    expect((await postRaw("  \n", { "Content-Type": "application/json" })).status).toBe(400)
    const cid = (await service.request("POST", "/api/v1/companies", { token, body: acme })).body.data.id
    expect((await service.request("PATCH", `/api/v1/companies/${cid}`, { token })).status).toBe(200)
  })

  it("leaves JSON that is not an object to the engine: 400 body", async () => {
    for (const raw of ["[]", "42", '"text"', "null", "true"]) {
      expectError(await postRaw(raw, { "Content-Type": "application/json" }), 400, "body", "Body must be a JSON object")
    }
  })

  it("answers 413 for a body over 1 MB and keeps the connection usable", async () => {
    const big = JSON.stringify({ ...acme, padding: "x".repeat(1.1 * 1024 * 1024) })
    expectError(await postRaw(big, { "Content-Type": "application/json" }), 413, "body", "Payload too large")
    const chunks = [
      JSON.stringify(acme).slice(0, -1),
      `,"padding":"${"y".repeat(600 * 1024)}`,
      `${"z".repeat(600 * 1024)}"}`,
    ]
    const streamed = await fetch(`${service.url}/api/v1/companies`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
          controller.close()
        },
      }),
      duplex: "half",
    } as RequestInit)
    expectError(await readResponse(streamed), 413, "body", "Payload too large")
    expect((await service.request("GET", "/api/v1/companies", { token })).status).toBe(200)
    const justUnder = JSON.stringify({ ...acme, padding: "x".repeat(1024 * 1024 - 100) })
    expect((await postRaw(justUnder, { "Content-Type": "application/json" })).status).toBe(201)
  })

  it("refuses text with the NUL character on its field with 422", async () => {
    const nul = "must not contain the NUL character (U+0000)"
    expectError(
      await service.request("POST", "/api/v1/companies", { token, body: { ...acme, name: "A\u0000B" } }),
      422,
      "name",
      nul,
    )
    expectError(
      await service.request("POST", "/api/v1/companies", { token, body: { ...acme, extra: [{ deep: "\u0000" }] } }),
      422,
      "extra.0.deep",
      nul,
    )
    expectError(await service.request("GET", "/api/v1/companies/cmp%00", { token }), 404, "path", "Not found")
  })

  it("refuses JSON nested deeper than 64 levels with 400", async () => {
    const deep = `{"name":${"[".repeat(10_000)}${"]".repeat(10_000)}}`
    expectError(
      await postRaw(deep, { "Content-Type": "application/json" }),
      400,
      "body",
      "JSON is nested too deeply (at most 64 levels)",
    )
    const fine = `{"country":"US","default_currency":"USD","name":${"[".repeat(60)}${"]".repeat(60)}}`
    expect((await postRaw(fine, { "Content-Type": "application/json" })).status).toBe(422)
  })
})

describe("routing", () => {
  beforeEach(() => start())

  it("answers 404 path / Not found for unknown routes and unsupported methods", async () => {
    const cases: Array<[string, string]> = [
      ["GET", "/nope"],
      ["POST", "/"],
      ["POST", "/docs"],
      ["POST", "/health"],
      ["OPTIONS", "/health"],
      ["PUT", "/api/v1/companies"],
      ["DELETE", "/api/v1/companies"],
      ["PUT", "/api/v1/companies/cmp_1"],
      ["PATCH", "/api/v1/companies/cmp_1/recipients/rcp_1"],
      ["GET", "/api/v1/companies/cmp_1/nothing"],
    ]
    for (const [method, path] of cases) {
      expectError(await service.request(method, path, { token }), 404, "path", "Not found")
    }
    expect((await service.request("HEAD", "/health")).status).toBe(200)
  })

  it("reaches a row with one trailing slash as without, and no row with an empty or an extra segment", async () => {
    const created = await service.request("POST", "/api/v1/companies", { token, body: acme })
    expect(created.status).toBe(201)
    const id = (created.body as { data: { id: string } }).data.id
    for (const path of ["/api/v1/companies", "/api/v1/companies/"]) {
      expect((await service.request("GET", path, { token })).status, path).toBe(200)
    }
    expect((await service.request("GET", `/api/v1/companies/${id}/`, { token })).status).toBe(200)
    expect((await service.request("HEAD", `/api/v1/companies/${id}`, { token })).status).toBe(200)
    for (const path of [`/api/v1/companies/${id}//`, `/api/v1//companies/${id}`, `/api/v1/companies/${id}/x/y`]) {
      expectError(await service.request("GET", path, { token }), 404, "path", "Not found")
    }
  })

  it("passes path ids to the engine as they are", async () => {
    for (const id of ["%20", "a%2Fb", "%E0%A4%A", "'%20OR%201=1%20--", "%25"]) {
      const response = await service.request("GET", `/api/v1/companies/${id}`, { token })
      expect({ id, ...response.body }).toEqual({
        id,
        errors: [{ field: "id", message: "Company not found or not accessible in this workspace" }],
      })
    }
  })
})

describe("request ids", () => {
  beforeEach(() => start())

  it("echoes an acceptable X-Request-Id on every answer", async () => {
    for (const [method, path] of [
      ["GET", "/health"],
      ["GET", "/nope"],
      ["GET", "/api/v1/companies"],
    ]) {
      const response = await service.request(method as string, path as string, {
        headers: { "X-Request-Id": "abc-123:X.y_z" },
      })
      expect(response.headers.get("x-request-id")).toBe("abc-123:X.y_z")
    }
    const longest = "a".repeat(200)
    expect(
      (await service.request("GET", "/health", { headers: { "X-Request-Id": longest } })).headers.get("x-request-id"),
    ).toBe(longest)
  })

  it("generates one when none or an unacceptable one is sent", async () => {
    const generated = /^req_[0-9a-f]{32}$/
    const none = await service.request("GET", "/health")
    expect(none.headers.get("x-request-id")).toMatch(generated)
    for (const sent of ["a".repeat(201), "has space", "slash/y", "semi;colon", "é"]) {
      const response = await service.request("GET", "/health", { headers: { "X-Request-Id": sent } })
      expect(response.headers.get("x-request-id")).toMatch(generated)
    }
    const a = await service.request("GET", "/health")
    const b = await service.request("GET", "/health")
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"))
  })
})

describe("unexpected errors and logs", () => {
  it("answers 500 base / Internal server error without leaking, and logs the class and stack frames only", async () => {
    await start((engine) => ({
      ...engine,
      companies: {
        ...engine.companies,
        list: () => Promise.reject(new Error("kaboom: connection string postgres://u:p@h")),
      },
    }))
    const response = await service.request("GET", "/api/v1/companies", {
      token,
      headers: { "X-Request-Id": "trace-500" },
    })
    expectError(response, 500, "base", "Internal server error")
    expect(response.headers.get("x-request-id")).toBe("trace-500")
    expect(response.text).not.toContain("kaboom")
    const logged = service.logs.map((line) => JSON.parse(line)).find((entry) => entry.err !== undefined)
    expect(logged).toMatchObject({ request_id: "trace-500", level: 50, err: { type: "Error" } })
    expect(logged.err.stack).toMatch(/^\s+at /)
    // A foreign error's message may quote anything (here a password); only our own errors' are logged.
    expect(service.logs.join("")).not.toContain("u:p@h")
  })

  it("logs one JSON line per request, without bodies, tokens, secrets or queries", async () => {
    await start()
    const key = await service.engine.access.createApiKey({ workspace: "acme" })
    const session = await service.request("POST", "/api/v1/sessions", {
      body: { api_key: key.api_key, api_secret: key.api_secret },
      headers: { "X-Request-Id": "trace-session" },
    })
    const bearer = session.body.data.access_token as string
    await service.request("POST", "/api/v1/companies", {
      token: bearer,
      body: { ...acme, name: "Confidential Name 123" },
      headers: { "X-Request-Id": "trace-create" },
    })
    await service.request("GET", "/api/v1/companies?page=1&token=query-secret", { token: bearer })
    const lines = service.logs.map((line) => JSON.parse(line))
    expect(lines.find((line) => line.request_id === "trace-create")).toEqual({
      level: 30,
      time: expect.any(String),
      service: "payments-engine",
      request_id: "trace-create",
      method: "POST",
      path: "/api/v1/companies",
      status: 201,
      ms: expect.any(Number),
      msg: "request",
    })
    expect(lines.find((line) => line.request_id === "trace-session")).toMatchObject({
      path: "/api/v1/sessions",
      status: 201,
    })
    const all = service.logs.join("")
    for (const secret of [key.api_secret, bearer, token, "Confidential Name 123", "query-secret"]) {
      expect(all).not.toContain(secret)
    }
  })
})
