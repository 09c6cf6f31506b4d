import { mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sqliteDialect, storageMigrations } from "@payments-engine/adapters/kysely"
import { afterAll, describe, expect, it } from "vitest"
import {
  childEnvironment,
  type LineWatcher,
  logMessage,
  runNode,
  startNode,
  startProcess,
} from "./support/child-process.ts"
import { acme, readResponse } from "./support/test-service.ts"

/** `npm start` as an operator runs it: `node --conditions=source --import tsx packages/http-koa/src/service/main.ts`. */
const main = ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"]
const folder = mkdtempSync(join(tmpdir(), "payments-engine-main-"))
const running = new Set<LineWatcher>()
afterAll(() => {
  for (const service of running) service.child.kill("SIGKILL")
  rmSync(folder, { recursive: true, force: true })
})

const start = async (env: Record<string, string>) => {
  const service = startNode(main, childEnvironment({ PORT: "0", LOG_LEVEL: "info", ...env }))
  running.add(service)
  const listening = JSON.parse(await service.waitForLine(logMessage("listening")))
  return { service, url: listening.url as string, port: listening.port as number }
}

const stop = async (service: LineWatcher) => {
  service.child.kill("SIGTERM")
  const code = await service.exited
  running.delete(service)
  return code
}

/**
 * Starts the service through npm (`command` is npm or npx), sends SIGTERM to npm's process, not to
 * node, and checks that the service stopped as on its own SIGTERM: it logged `stopped` once and
 * nothing listens on its port any more.
 */
const expectStopsOnSigtermToNpm = async (command: string, args: ReadonlyArray<string>, database: string) => {
  const npm = startProcess(
    command,
    args,
    childEnvironment({ PORT: "0", LOG_LEVEL: "info", DATABASE_URL: `sqlite:${join(folder, database)}` }),
  )
  running.add(npm)
  const { port } = JSON.parse(await npm.waitForLine(logMessage("listening"))) as { port: number }
  npm.child.kill("SIGTERM")
  await npm.exited
  // npm may be gone before the service, which holds the output until it has stopped.
  await npm.outputEnded
  running.delete(npm)
  expect(npm.lines.filter(logMessage("stopped"))).toHaveLength(1)
  expect(await refusesConnections(port)).toBe(true)
}

/** Whether nothing listens on `port` any more. */
const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", () => resolve(true))
  })

const sessionOf = async (url: string, apiKey: string, apiSecret: string) =>
  readResponse(
    await fetch(`${url}/api/v1/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ api_key: apiKey, api_secret: apiSecret }),
    }),
  )

/** Sends a POST whose body waits until `release` resolves; resolves `continued` once the server took the request. */
const heldRequest = (port: number, token: string) => {
  const body = JSON.stringify(acme)
  const socket = connect(port, "127.0.0.1")
  let received = ""
  let onContinue: () => void = () => undefined
  const continued = new Promise<void>((resolve) => {
    onContinue = resolve
  })
  socket.setEncoding("utf8").on("data", (chunk: string) => {
    received += chunk
    if (received.includes("100 Continue")) onContinue()
  })
  const answered = new Promise<string>((resolve, reject) => {
    socket.on("end", () => resolve(received))
    socket.on("error", reject)
  })
  socket.write(
    [
      "POST /api/v1/companies HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      `Authorization: Bearer ${token}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Expect: 100-continue",
      "",
      "",
    ].join("\r\n"),
  )
  return { continued, answered, sendBody: () => socket.write(body) }
}

describe("npm start", () => {
  it("boots on an empty database, prints a key once, serves, and shuts down gracefully on SIGTERM", async () => {
    const databaseUrl = `sqlite:${join(folder, "boot.sqlite")}`
    const first = await start({ DATABASE_URL: databaseUrl })
    const keyLines = first.service.lines.filter((line) => /^API (key|secret): /.test(line))
    expect(keyLines).toEqual([
      expect.stringMatching(/^API key: pk_\S+$/),
      expect.stringMatching(/^API secret: sk_\S+$/),
    ])
    const apiKey = keyLines[0]?.slice("API key: ".length) as string
    const apiSecret = keyLines[1]?.slice("API secret: ".length) as string

    const health = await readResponse(await fetch(`${first.url}/health`))
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { status: "ok" } })
    const session = await sessionOf(first.url, apiKey, apiSecret)
    expect(session.status).toBe(201)
    const token = session.body.data.access_token as string

    const held = heldRequest(first.port, token)
    await held.continued
    first.service.child.kill("SIGTERM")
    await first.service.waitForLine(logMessage("shutting down"))
    held.sendBody()
    const answer = await held.answered
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created\r\n/)
    expect(answer).toMatch(/\r\nConnection: close\r\n/)
    expect(await first.service.exited).toBe(0)
    running.delete(first.service)
    expect(first.service.lines.some(logMessage("stopped"))).toBe(true)

    const second = await start({ DATABASE_URL: databaseUrl })
    try {
      expect(second.service.lines.filter((line) => line.startsWith("API "))).toEqual([])
      const companies = await readResponse(
        await fetch(`${second.url}/api/v1/companies`, { headers: { Authorization: `Bearer ${token}` } }),
      )
      expect(companies.status).toBe(200)
      expect(companies.body.data.map((company: { name: string }) => company.name)).toEqual([acme.name])
    } finally {
      expect(await stop(second.service)).toBe(0)
    }
  })

  it("stops when SIGTERM is sent to the npm process of npm start, not only to node", async () => {
    await expectStopsOnSigtermToNpm("npm", ["start", "--silent"], "npm-start.sqlite")
  })

  it("runs as payments-engine serve too, and stops on SIGTERM sent to the node process", async () => {
    const service = startNode(
      ["packages/http-koa/bin/payments-engine.js", "serve"],
      childEnvironment({ PORT: "0", LOG_LEVEL: "info", DATABASE_URL: `sqlite:${join(folder, "serve.sqlite")}` }),
    )
    running.add(service)
    const listening = JSON.parse(await service.waitForLine(logMessage("listening"))) as {
      url: string
      database_location: string
    }
    const location = `SQLite ${join(folder, "serve.sqlite")}`
    expect(listening.database_location).toBe(location)
    // A first start says which database it opens, then each migration step as it ends, before listening.
    const startLines = service.lines
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(startLines[0]).toMatchObject({ msg: "opening database", database: "sqlite", database_location: location })
    const steps = startLines.filter((line) => line.msg === "migration step ran")
    expect(steps.map((line) => line.migration)).toEqual(
      Object.keys(await storageMigrations(sqliteDialect).getMigrations()),
    )
    for (const step of steps) expect(step.duration_ms).toEqual(expect.any(Number))
    expect((await fetch(`${listening.url}/health`)).status).toBe(200)
    expect(await stop(service)).toBe(0)
    expect(service.lines.filter((line) => line.includes('"msg":"stopped"'))).toHaveLength(1)
  })

  it("stops when SIGTERM is sent to the npm process of npx payments-engine serve", async () => {
    // npm passes the signal to the shell it runs the command in, which ends without passing it
    // on: the service must notice that it lost its launcher.
    await expectStopsOnSigtermToNpm("npx", ["payments-engine", "serve"], "npx-serve.sqlite")
  })

  it("writes lines for people with LOG_FORMAT=pretty", async () => {
    const service = startNode(
      main,
      childEnvironment({
        PORT: "0",
        LOG_LEVEL: "info",
        LOG_FORMAT: "pretty",
        DATABASE_URL: `sqlite:${join(folder, "pretty.sqlite")}`,
      }),
    )
    running.add(service)
    const listening = await service.waitForLine((line) => line.includes("listening"))
    expect(listening).toMatch(/^\[[0-9:.]+\] INFO: listening$/)
    expect(() => JSON.parse(listening)).toThrow()
    await service.waitForLine((line) => /^\s+sandbox: true$/.test(line))
    expect(await stop(service)).toBe(0)
  })

  it("creates the key of PAYMENTS_API_KEY and PAYMENTS_API_SECRET instead of printing one", async () => {
    const { service, url } = await start({
      DATABASE_URL: `sqlite:${join(folder, "bootstrap.sqlite")}`,
      PAYMENTS_API_KEY: "pk_from_env",
      PAYMENTS_API_SECRET: "sk_from_env_secret",
      PAYMENTS_JWT_SECRET: "j".repeat(40),
    })
    try {
      expect(service.lines.filter((line) => line.startsWith("API "))).toEqual([])
      expect((await sessionOf(url, "pk_from_env", "sk_from_env_secret")).status).toBe(201)
      expect((await sessionOf(url, "pk_from_env", "wrong")).status).toBe(401)
    } finally {
      expect(await stop(service)).toBe(0)
    }
  })

  it("exits 1 with a clear message, not a stack trace, on a bad configuration", async () => {
    const result = await runNode(
      main,
      childEnvironment({ PORT: "not-a-port", DATABASE_URL: `sqlite:${join(folder, "bad.sqlite")}` }),
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(
      'Invalid configuration:\n  - PORT must be an integer from 0 to 65535, got "not-a-port"\n',
    )
    const postgres = await runNode(main, childEnvironment({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" }))
    expect(postgres.code).toBe(1)
    expect(postgres.stderr).toContain("PAYMENTS_JWT_SECRET is required")
    expect(postgres.stderr).not.toMatch(/\n\s+at /)
  })

  it("exits 1 with the reason when the database cannot be reached, without echoing credentials", async () => {
    const result = await runNode(
      main,
      childEnvironment({
        DATABASE_URL: "postgres://payments:hunter2@127.0.0.1:1/payments",
        PAYMENTS_JWT_SECRET: "j".repeat(40),
      }),
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /^Cannot start the payments engine: Cannot open the database of DATABASE_URL \(postgres\): /,
    )
    expect(result.stderr).not.toContain("hunter2")
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})
