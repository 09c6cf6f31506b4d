import { once } from "node:events"
import type { AddressInfo } from "node:net"
import { createServer, type Socket } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { processRig } from "./support/process-rig.ts"
import { awaitCompleted, queueTwoWorkspaces, queuingServerSecret, updatedAtOf } from "./support/queued-payments.ts"

/*
 * One workspace's webhook endpoints accept connections and never answer: a running service
 * still completes another workspace's payments, and the first's own, while the silent receiver
 * holds the deliveries' connections open (the order a user sees: every payment done before any
 * of those attempts gives up at its 30 s timeout), on both databases. The figures of each run are printed for the docs.
 */

const { folder, running, serverUrl, postgresUrl, startRecordingService: start } = processRig("isolation")
const perWorkspace = 10
/**
 * Endpoints of workspace A at the silent receiver: more than the five jobs the runner used to run
 * at once on Postgres, where each endpoint's deliveries held one of them.
 */
const silentEndpoints = 6

/** Connections the silent receiver has accepted, and how many of them the service has closed. */
const silent = { accepted: 0, closed: 0 }
const sockets = new Set<Socket>()
const receiver = createServer((socket) => {
  silent.accepted += 1
  sockets.add(socket)
  socket.resume()
  socket.on("close", () => {
    sockets.delete(socket)
    silent.closed += 1
  })
})
let silentUrl = ""
beforeAll(async () => {
  receiver.listen(0, "127.0.0.1")
  await once(receiver, "listening")
  silentUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
})
afterAll(() => {
  for (const socket of sockets) socket.destroy()
  receiver.close()
})

/** Median and max of the payments' times from the service's start to their completion, in seconds. */
const figures = (completedAt: ReadonlyArray<number>, startedAt: number) => {
  const seconds = completedAt.map((at) => (at - startedAt) / 1000).sort((x, y) => x - y)
  const middle = seconds.length / 2
  const median = seconds.length % 2 === 1 ? seconds[Math.floor(middle)]! : (seconds[middle - 1]! + seconds[middle]!) / 2
  return { median: median.toFixed(2), max: seconds.at(-1)!.toFixed(2) }
}

const serveTwoWorkspaces = async (databaseUrl: string, withSilentEndpoint: boolean) => {
  silent.accepted = 0
  silent.closed = 0
  const { inA, inB } = await queueTwoWorkspaces(
    databaseUrl,
    perWorkspace,
    withSilentEndpoint ? { url: silentUrl, count: silentEndpoints } : undefined,
  )
  const env = {
    DATABASE_URL: databaseUrl,
    PAYMENTS_SANDBOX: "true",
    PAYMENTS_JWT_SECRET: queuingServerSecret,
    PROVIDER_BOOK: join(folder, `book-${Date.now()}.txt`),
  }
  const startedAt = Date.now()
  const service = await start(env)
  try {
    expect(await awaitCompleted(databaseUrl, inB, 60_000)).toEqual(inB.map(() => "completed"))
    // B's payments are done before any attempt to the silent receiver has given up (30 s).
    if (withSilentEndpoint) expect(silent.closed).toBe(0)
    expect(await awaitCompleted(databaseUrl, inA, 60_000)).toEqual(inA.map(() => "completed"))
    if (withSilentEndpoint) {
      // Every endpoint's deliveries reach the receiver, which holds them: A's payments did not wait either.
      await vi.waitFor(() => expect(silent.accepted).toBeGreaterThanOrEqual(silentEndpoints), { timeout: 20_000 })
      expect(silent.closed).toBe(0)
    }
    const b = figures(await updatedAtOf(databaseUrl, inB), startedAt)
    const a = figures(await updatedAtOf(databaseUrl, inA), startedAt)
    console.log(
      `isolation ${databaseUrl.startsWith("sqlite") ? "SQLite" : "Postgres"} ${withSilentEndpoint ? "with" : "without"} a silent endpoint in A: ` +
        `start to completed, B median ${b.median} s max ${b.max} s; A median ${a.median} s max ${a.max} s`,
    )
  } finally {
    // Killed: a shutdown would wait for the deliveries the silent receiver holds.
    service.child.kill("SIGKILL")
    await service.exited
    running.delete(service)
  }
}

describe("a webhook endpoint that never answers, in workspace A", () => {
  it("on SQLite, delays no payment: B's and A's complete while its connections are held open", async () => {
    await serveTwoWorkspaces(`sqlite:${join(folder, "silent.sqlite")}`, true)
  }, 150_000)

  it("on SQLite, without the endpoint (the figures to compare with)", async () => {
    await serveTwoWorkspaces(`sqlite:${join(folder, "quiet.sqlite")}`, false)
  }, 90_000)

  it.skipIf(serverUrl === undefined)(
    "on Postgres (graphile-worker), delays no payment: B's and A's complete while its connections are held open",
    async () => {
      await serveTwoWorkspaces(postgresUrl("silent"), true)
    },
    150_000,
  )

  it.skipIf(serverUrl === undefined)(
    "on Postgres, without the endpoint (the figures to compare with)",
    async () => {
      await serveTwoWorkspaces(postgresUrl("quiet"), false)
    },
    90_000,
  )
})
