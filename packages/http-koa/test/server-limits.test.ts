import { mkdtempSync, rmSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createLogger } from "../src/binding/logger.ts"
import { defaultHttpServerLimits, loadConfig } from "../src/service/config.ts"
import { type RunningService, startService } from "../src/service/server.ts"
import { fastHasher } from "./support/test-service.ts"

/**
 * The timeouts and the connection cap of the server `startService` listens with, over raw
 * sockets, set short by their variables: headers or a body dripped a byte at a time are cut off
 * with 408, a kept-alive connection with nothing to do is closed, and connections past the cap
 * are closed unanswered while the ones within it are served.
 */
const folder = mkdtempSync(join(tmpdir(), "pe-server-limits-"))
let service: RunningService
beforeAll(async () => {
  const config = loadConfig({
    PORT: "0",
    DATABASE_URL: `sqlite:${join(folder, "limits.sqlite")}`,
    PAYMENTS_HEADERS_TIMEOUT_SECONDS: "1",
    PAYMENTS_REQUEST_TIMEOUT_SECONDS: "2",
    PAYMENTS_KEEP_ALIVE_TIMEOUT_SECONDS: "1",
    PAYMENTS_IDLE_TIMEOUT_SECONDS: "30",
    PAYMENTS_MAX_CONNECTIONS: "3",
  })
  service = await startService(config, {
    logger: createLogger({ level: "silent" }),
    hasher: fastHasher(),
    host: "127.0.0.1",
    print: () => {},
  })
})
afterAll(async () => {
  await service.close()
  rmSync(folder, { recursive: true, force: true })
})

/** How long a test drips before it gives up on the server cutting it off: far past every timeout set here. */
const dripForMs = 15_000

/** A raw connection: what it received, and whether (and after how long) the server closed it. */
interface Connection {
  readonly socket: Socket
  /** Resolves when the connection closes, with what was received and the milliseconds it stayed open. */
  readonly closed: Promise<{ readonly text: string; readonly openMs: number }>
}

const open = (): Promise<Connection> =>
  new Promise((resolve, reject) => {
    const socket = connect(service.port, "127.0.0.1")
    const received: Array<Buffer> = []
    const started = Date.now()
    socket.on("data", (chunk: Buffer) => received.push(chunk))
    // A server may reset a connection it drops: what it sent first still counts.
    socket.on("error", () => {})
    const closed = new Promise<{ text: string; openMs: number }>((done) =>
      socket.on("close", () =>
        done({ text: Buffer.concat(received).toString("latin1"), openMs: Date.now() - started }),
      ),
    )
    socket.once("connect", () => resolve({ socket, closed }))
    socket.once("error", reject)
  })

/** Writes `piece` every 100 ms until the connection closes or {@link dripForMs} passes. */
const drip = (connection: Connection, piece: string) => {
  const timer = setInterval(() => {
    if (!connection.socket.destroyed) connection.socket.write(piece)
  }, 100)
  const stop = setTimeout(() => connection.socket.destroy(), dripForMs)
  void connection.closed.then(() => {
    clearInterval(timer)
    clearTimeout(stop)
  })
}

describe("the service's HTTP server", () => {
  it("has defaults shorter than Node's: 20 s for headers, 120 s for a request, 5 s kept alive, 60 s idle, 1000 connections", () => {
    expect(defaultHttpServerLimits).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 5_000,
      idleTimeoutMs: 60_000,
      maxConnections: 1000,
    })
    const config = loadConfig({})
    expect(config.httpServer).toEqual(defaultHttpServerLimits)
  })

  it("cuts off headers dripped past the headers timeout with 408", async () => {
    const connection = await open()
    connection.socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    drip(connection, "X-Drip: a\r\n")
    const { text, openMs } = await connection.closed
    expect(text).toMatch(/^HTTP\/1\.1 408 /)
    expect(openMs).toBeLessThan(dripForMs)
  })

  it("cuts off a body dripped past the request timeout with 408", async () => {
    const connection = await open()
    connection.socket.write(
      "POST /api/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
    )
    drip(connection, " ")
    const { text, openMs } = await connection.closed
    expect(text).toMatch(/^HTTP\/1\.1 408 /)
    expect(openMs).toBeLessThan(dripForMs)
  })

  it("closes a kept-alive connection that sends nothing more after the keep-alive timeout", async () => {
    const connection = await open()
    connection.socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    const stop = setTimeout(() => connection.socket.destroy(), dripForMs)
    const { text, openMs } = await connection.closed
    clearTimeout(stop)
    expect(text).toMatch(/^HTTP\/1\.1 200 /)
    expect(text).toMatch(/keep-alive/i)
    // Set to 1 s here: closed well before the 5 s default (Node's too) would close it.
    expect(openMs).toBeLessThan(defaultHttpServerLimits.keepAliveTimeoutMs)
  })

  it("closes connections past the cap unanswered, and serves again once one of the others ends", async () => {
    const held = await Promise.all([open(), open(), open()])
    // Each holds a request whose headers are not finished, so none ends by itself before the check.
    for (const connection of held) connection.socket.write("GET /health HTTP/1.1\r\n")
    const extra = await open()
    extra.socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    expect((await extra.closed).text).toBe("")
    for (const connection of held) connection.socket.destroy()
    await Promise.all(held.map((connection) => connection.closed))
    const after = await open()
    after.socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    expect((await after.closed).text).toMatch(/^HTTP\/1\.1 200 /)
  })
})
