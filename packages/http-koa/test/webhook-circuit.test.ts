import { once } from "node:events"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import type { CircuitLogEvent } from "@payments-engine/core"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { advanceClock, type Payer, setUpPayer } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * The circuit breaker of a webhook endpoint, and a workspace's share of the webhook lane, over
 * real HTTP on SQLite and Postgres: a receiver on loopback that never answers until told to
 * answer 200, or holds requests until the test answers them; the sandbox clock drives the
 * cool-downs.
 */
const sqlite = openTestSqlite({ file: true })
const postgres = openTestPostgres()
/**
 * The lane-share test on a server runs in a database of its own: graphile-worker 0.16 stops every
 * worker of a database when any schema of it is migrated (another test file's new storage), and a
 * stopping worker waits for the deliveries its receivers hold, which the test holds on purpose.
 */
const serverUrl = postgres.kind === "server" ? (process.env.DATABASE_URL as string) : undefined
const loneDatabase = `pe_lane_share_${process.pid}`
const lonePostgres =
  serverUrl === undefined
    ? postgres
    : openTestPostgres({
        databaseUrl: Object.assign(new URL(serverUrl), { pathname: `/${loneDatabase}` }).toString(),
      })
const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** What the receiver got: the event of each request and whether it answered 200. */
const received: Array<{ readonly path: string; readonly eventId: string; readonly ok: boolean }> = []
/** Paths that answer 200; paths under `/hold/` wait in `held`; every other path never answers. */
const answering = new Set<string>()
const held: Array<ServerResponse> = []
const receiver = createServer(async (req, res) => {
  req.resume()
  await once(req, "end")
  const path = req.url ?? "/"
  const ok = answering.has(path)
  received.push({ path, eventId: String(req.headers["service-event-id"]), ok })
  if (ok) res.writeHead(200).end("ok")
  else if (path.includes("/hold/")) held.push(res)
})
let base = ""
beforeAll(async () => {
  if (serverUrl !== undefined) await admin(`create database "${loneDatabase}"`)
  receiver.listen(0, "127.0.0.1")
  await once(receiver, "listening")
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
})
afterAll(async () => {
  receiver.closeAllConnections()
  receiver.close()
  await sqlite.close()
  await postgres.close()
  if (serverUrl !== undefined) {
    await lonePostgres.close()
    await admin(`drop database if exists "${loneDatabase}" with (force)`)
  }
})

interface Delivery {
  readonly id: string
  readonly state: string
  readonly attempt_count: number
  readonly next_attempt_at: string | null
}

describe.each([
  ["SQLite", () => sqlite.factory(), () => sqlite.factory()],
  ["Postgres", () => postgres.factory(), () => lonePostgres.factory()],
])("an endpoint's circuit on %s", (name, factory, quietFactory) => {
  let service: TestService
  /** What the engine told of circuits opening and closing. */
  const circuits: Array<CircuitLogEvent> = []
  beforeAll(async () => {
    service = await startTestService({
      storage: await factory(),
      sandbox: true,
      webhookTimeoutMs: 300,
      jobLog: (event) => {
        if ("circuit" in event) circuits.push(event)
      },
    })
  })
  afterAll(() => service.close())

  const path = `/${name}/down`
  const at = () => received.filter((r) => r.path === path)
  const renameEntity = (payer: Payer, name: string) =>
    service.request("PATCH", `/api/v1/companies/${payer.cid}/entities/${payer.eid}`, {
      token: payer.token,
      body: { name },
    })
  const endpointOf = async (payer: Payer, id: string) => {
    const response = await service.request("GET", `/api/v1/webhook_endpoints/${id}`, { token: payer.token })
    expect(response.status, response.text).toBe(200)
    return response.body.data as { consecutive_failures: number; circuit_open_until: string | null }
  }
  const deliveriesOf = async (payer: Payer, id: string) => {
    const response = await service.request("GET", `/api/v1/webhook_endpoints/${id}/deliveries`, {
      token: payer.token,
    })
    expect(response.status, response.text).toBe(200)
    return response.body.data as Delivery[]
  }

  it("opens after five timeouts in a row, holds later deliveries without spending attempts, probes once per cool-down, and closes on a 200", async () => {
    const payer = await setUpPayer(service, `circuit-${name}`)
    const created = await service.request("POST", `/api/v1/companies/${payer.cid}/webhook_endpoints`, {
      token: payer.token,
      body: { url: `${base}${path}`, event_names: ["entity.updated"] },
    })
    expect(created.status, created.text).toBe(201)
    const endpointId = created.body.data.id as string
    expect(created.body.data).toMatchObject({ consecutive_failures: 0, circuit_open_until: null })

    // Five deliveries, one lane, five timeouts: the circuit opens for a minute.
    for (let i = 0; i < 5; i++) expect((await renameEntity(payer, `Down ${i}`)).status).toBe(200)
    await advanceClock(service, payer.token, 0)
    expect(at()).toHaveLength(5)
    const opened = await endpointOf(payer, endpointId)
    expect(opened.consecutive_failures).toBe(5)
    expect(circuits).toEqual([
      {
        circuit: "opened",
        workspaceId: expect.any(String),
        endpointId,
        consecutiveFailures: 5,
        until: opened.circuit_open_until,
      },
    ])
    expect(Date.parse(opened.circuit_open_until!) - service.clock.now().getTime()).toBeGreaterThan(55_000)

    // While it is open, new deliveries wait unsent, their attempts untouched, due when it ends.
    for (let i = 0; i < 3; i++) expect((await renameEntity(payer, `Waiting ${i}`)).status).toBe(200)
    await advanceClock(service, payer.token, 30)
    expect(at()).toHaveLength(5)
    const waiting = (await deliveriesOf(payer, endpointId)).filter((d) => d.attempt_count === 0)
    expect(waiting).toHaveLength(3)
    for (const d of waiting) {
      expect(d).toMatchObject({ state: "pending", next_attempt_at: opened.circuit_open_until })
    }

    // The cool-down ends: one probe goes, times out, and the circuit opens for two minutes.
    await advanceClock(service, payer.token, 30)
    expect(at()).toHaveLength(6)
    const reopened = await endpointOf(payer, endpointId)
    expect(reopened.consecutive_failures).toBe(6)
    const deliveries = await deliveriesOf(payer, endpointId)
    expect(deliveries.reduce((sum, d) => sum + d.attempt_count, 0)).toBe(6)
    // The probe keeps its own retry schedule (+4 min after its second attempt); the rest wait for the circuit.
    const probe = deliveries.find((d) => d.attempt_count === 2)!
    expect(Date.parse(probe.next_attempt_at!)).toBeGreaterThan(Date.parse(reopened.circuit_open_until!))
    for (const d of deliveries.filter((d) => d !== probe)) {
      expect(d).toMatchObject({ state: "pending", next_attempt_at: reopened.circuit_open_until })
    }

    // The receiver is back; nothing goes before the cool-down ends, then the probe's 200 lets all out.
    answering.add(path)
    await advanceClock(service, payer.token, 119)
    expect(at()).toHaveLength(6)
    await advanceClock(service, payer.token, 1)
    expect(at().filter((r) => r.ok)).toHaveLength(7)
    expect(await endpointOf(payer, endpointId)).toMatchObject({ consecutive_failures: 0, circuit_open_until: null })
    // Opened once, and closed once: a failed probe leaves it open, which is not news.
    expect(circuits.map((c) => [c.circuit, c.endpointId, c.until])).toEqual([
      ["opened", endpointId, opened.circuit_open_until],
      ["closed", endpointId, null],
    ])
    await advanceClock(service, payer.token, 120)
    const delivered = at().filter((r) => r.ok)
    expect(delivered).toHaveLength(8)
    expect(new Set(delivered.map((r) => r.eventId)).size).toBe(8)
    expect(await endpointOf(payer, endpointId)).toMatchObject({ consecutive_failures: 0, circuit_open_until: null })
    const done = await deliveriesOf(payer, endpointId)
    expect(done.map((d) => d.state)).toEqual(Array(8).fill("succeeded"))
    expect(done.reduce((sum, d) => sum + d.attempt_count, 0)).toBe(at().length)

    // Nothing is sent again.
    await advanceClock(service, payer.token, 3600)
    expect(at()).toHaveLength(14)
  })

  it("sends a failing endpoint's deliveries only as many at once as it takes to open its circuit", async () => {
    const payer = await setUpPayer(service, `shrink-${name}`)
    const shrinkPath = `/${name}/shrink`
    const created = await service.request("POST", `/api/v1/companies/${payer.cid}/webhook_endpoints`, {
      token: payer.token,
      body: { url: `${base}${shrinkPath}`, event_names: ["entity.updated"] },
    })
    expect(created.status, created.text).toBe(201)
    const sent = () => received.filter((r) => r.path === shrinkPath)
    for (let i = 0; i < 2; i++) expect((await renameEntity(payer, `Failing ${i}`)).status).toBe(200)
    await advanceClock(service, payer.token, 0)
    expect(sent()).toHaveLength(2)
    expect(await endpointOf(payer, created.body.data.id)).toMatchObject({ consecutive_failures: 2 })
    // Ten more due at once: a lane of three reaches five failures, and the other seven wait unsent.
    for (let i = 0; i < 10; i++) expect((await renameEntity(payer, `More ${i}`)).status).toBe(200)
    await advanceClock(service, payer.token, 0)
    expect(sent()).toHaveLength(5)
    expect(await endpointOf(payer, created.body.data.id)).toMatchObject({ consecutive_failures: 5 })
    const unsent = (await deliveriesOf(payer, created.body.data.id)).filter((d) => d.attempt_count === 0)
    expect(unsent).toHaveLength(7)
  })

  it("lets a workspace hold at most half the webhook lane: another workspace's delivery goes while its receivers hold twelve", async () => {
    const quiet = await startTestService({ storage: await quietFactory(), sandbox: true, webhookTimeoutMs: 20_000 })
    try {
      const a = await setUpPayer(quiet, `share-a-${name}`)
      const b = await setUpPayer(quiet, `share-b-${name}`)
      const endpointAt = async (payer: Payer, url: string) => {
        const response = await quiet.request("POST", `/api/v1/companies/${payer.cid}/webhook_endpoints`, {
          token: payer.token,
          body: { url, event_names: ["entity.updated"] },
        })
        expect(response.status, response.text).toBe(201)
      }
      const holding = Array.from({ length: 12 }, (_, i) => `/${name}/hold/${i}`)
      for (const path of holding) await endpointAt(a, `${base}${path}`)
      const bPath = `/${name}/share-b`
      answering.add(bPath)
      await endpointAt(b, `${base}${bPath}`)
      const rename = (payer: Payer, to: string) =>
        quiet.request("PATCH", `/api/v1/companies/${payer.cid}/entities/${payer.eid}`, {
          token: payer.token,
          body: { name: to },
        })
      // A's twelve deliveries are queued first, so they are due first.
      expect((await rename(a, "Held A")).status).toBe(200)
      expect((await rename(b, "Quick B")).status).toBe(200)
      const heldOfA = () => received.filter((r) => holding.includes(r.path))
      // The background runner, as the service runs it: on Postgres, runJobs runs one job at a time.
      quiet.engine.jobs.start()
      // B's delivery arrives while five of A's receivers hold theirs (half of the lane's ten slots).
      await vi.waitFor(() => expect(received.filter((r) => r.path === bPath)).toHaveLength(1), { timeout: 5_000 })
      expect(held).toHaveLength(5)
      expect(heldOfA()).toHaveLength(5)
      for (const path of holding) answering.add(path)
      for (const res of held.splice(0)) res.writeHead(200).end("ok")
      // A's other seven waited, unsent, and go a few seconds later, each once.
      for (let i = 0; i < 10 && heldOfA().length < 12; i++) await advanceClock(quiet, a.token, 5)
      expect(
        heldOfA()
          .map((r) => r.path)
          .sort(),
      ).toEqual([...holding].sort())
      expect(received.filter((r) => r.path === bPath)).toHaveLength(1)
    } finally {
      for (const res of held.splice(0)) res.writeHead(200).end("ok")
      await quiet.engine.jobs.stop()
      await quiet.close()
    }
  })
})
