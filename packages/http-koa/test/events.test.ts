import { once } from "node:events"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openStorageFromUrl, TestClock } from "@payments-engine/adapters"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { createQuote, paymentBody, setUpPayer } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * `GET /api/v1/events` and `GET /api/v1/events/{id}` over real HTTP, on a SQLite file and on
 * Postgres (DATABASE_URL): a payment's life in order, across a restart of the service on the same
 * database, the payloads a real receiver got, the filters, and another workspace's events unseen.
 */
const folder = mkdtempSync(join(tmpdir(), "pe-events-"))
const serverUrl = process.env.DATABASE_URL
const schema = `events_${process.pid}_${Date.now()}`

/** Bodies the receiver got, by path. */
const received: Array<{ readonly path: string; readonly body: unknown }> = []
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  received.push({ path: req.url ?? "/", body: JSON.parse(Buffer.concat(chunks).toString("utf8")) })
  res.writeHead(200).end("ok")
})
let base = ""
beforeAll(async () => {
  receiver.listen(0, "127.0.0.1")
  await once(receiver, "listening")
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
})
afterAll(async () => {
  receiver.closeAllConnections()
  receiver.close()
  rmSync(folder, { recursive: true, force: true })
  if (serverUrl === undefined) return
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  for (const suffix of ["", "_graphile_worker"])
    await client.query(`drop schema if exists "${schema}${suffix}" cascade`)
  await client.end()
})

const postgresUrl = () => {
  const url = new URL(serverUrl as string)
  url.searchParams.set("schema", schema)
  return url.toString()
}

const databases: ReadonlyArray<readonly [string, () => string]> = [
  ["SQLite", () => `sqlite:${join(folder, "events.sqlite")}`],
  ...(serverUrl === undefined ? [] : [["Postgres", postgresUrl] as const]),
]

describe.each(databases)("the events API on %s", (name, databaseUrl) => {
  const clock = new TestClock(new Date("2031-05-01T09:00:00.000Z"))
  const start = async () => startTestService({ storage: await openStorageFromUrl(databaseUrl()), clock, sandbox: true })

  it("lists a payment's life in order, across a restart, with the payloads its webhooks carried; another workspace sees none", async () => {
    let service: TestService = await start()
    const payer = await setUpPayer(service, `events-${name}`)
    const path = `/${name}/payments`
    const endpoint = await service.request("POST", `/api/v1/companies/${payer.cid}/webhook_endpoints`, {
      token: payer.token,
      body: {
        url: `${base}${path}`,
        event_names: ["PaymentEvents::DebitInitiatedEvent", "PaymentEvents::CompletedEvent"],
      },
    })
    expect(endpoint.status, endpoint.text).toBe(201)
    const quote = await createQuote(service, payer, 12)
    const paid = await service.request("POST", `/api/v1/companies/${payer.cid}/payments`, {
      token: payer.token,
      body: paymentBody(quote, `events-${name}`),
    })
    expect(paid.status, paid.text).toBe(201)
    const paymentId = paid.body.data.id as string
    await service.runJobs()
    await service.close()

    service = await start()
    try {
      const token = payer.token
      const life = await service.request("GET", `/api/v1/events?resource_id=${paymentId}`, { token })
      expect(life.status, life.text).toBe(200)
      // Newest first: read backwards, it is the payment's life.
      expect(life.body.data.map((e: { type: string }) => e.type).reverse()).toEqual([
        "PaymentEvents::DebitInitiatedEvent",
        "PaymentEvents::CompletedEvent",
      ])
      expect(life.body.meta).toEqual({ total_records: 2, total_pages: 1, current_page: 1, per_page: 25 })
      for (const event of life.body.data) {
        expect(event).toMatchObject({ company_id: payer.cid, resource_id: paymentId })
        expect(event.payload).toMatchObject({ event: event.type, resource_id: paymentId })
      }
      // The receiver got exactly these payloads (deliveries of one endpoint may arrive in any order).
      const got = received.filter((r) => r.path === path).map((r) => r.body)
      expect(got).toHaveLength(2)
      expect(got).toEqual(expect.arrayContaining(life.body.data.map((e: { payload: unknown }) => e.payload)))

      const completed = life.body.data[0]
      const one = await service.request("GET", `/api/v1/events/${completed.id}`, { token })
      expect(one.status, one.text).toBe(200)
      expect(one.body.data).toEqual(completed)

      // Everything of the workspace: the set-up's events too, oldest last.
      const all = await service.request("GET", "/api/v1/events?per_page=100", { token })
      expect(all.body.data.map((e: { type: string }) => e.type).reverse()).toEqual([
        "entity.created",
        "BankAccountEvents::CreatedEvent",
        "PaymentProfileEvents::CreatedEvent",
        "BankAccountEvents::CreatedEvent",
        "PaymentProfileEvents::CreatedEvent",
        "PaymentEvents::DebitInitiatedEvent",
        "PaymentEvents::CompletedEvent",
      ])
      const byType = await service.request("GET", "/api/v1/events?type=BankAccountEvents::CreatedEvent", { token })
      expect(byType.body.data.map((e: { type: string }) => e.type)).toEqual([
        "BankAccountEvents::CreatedEvent",
        "BankAccountEvents::CreatedEvent",
      ])
      const paging = await service.request("GET", "/api/v1/events?per_page=3&page=3", { token })
      expect(paging.body.data.map((e: { id: string }) => e.id)).toEqual([all.body.data[6].id])
      expect(paging.body.links.prev).toContain("page=2")

      // The time window: from inclusive, before exclusive.
      const at = completed.created_at as string
      const from = await service.request("GET", `/api/v1/events?created_from=${at}`, { token })
      expect(from.body.data.map((e: { id: string }) => e.id)).toContain(completed.id)
      const before = await service.request("GET", `/api/v1/events?created_before=${at}`, { token })
      expect(before.body.data.map((e: { id: string }) => e.id)).not.toContain(completed.id)
      const later = new Date(Date.parse(at) + 1).toISOString()
      const window = await service.request(
        "GET",
        `/api/v1/events?resource_id=${paymentId}&created_from=${at}&created_before=${later}`,
        { token },
      )
      expect(window.body.data.map((e: { id: string }) => e.id)).toContain(completed.id)

      // Another workspace: an empty list, and the event is missing, as one that never was.
      const stranger = await service.signIn(`events-stranger-${name}`)
      const theirs = await service.request("GET", "/api/v1/events", { token: stranger })
      expect(theirs.body.data).toEqual([])
      const missing = await service.request("GET", "/api/v1/events/evt_0000000000000000000000000", { token: stranger })
      expect(await service.request("GET", `/api/v1/events/${completed.id}`, { token: stranger })).toMatchObject({
        status: missing.status,
        body: missing.body,
      })
      expectError(missing, 404, "id", "Event not found")
    } finally {
      await service.close()
    }
  })

  it("refuses a wrong filter with 400 naming it", async () => {
    const service = await start()
    try {
      const token = await service.signIn(`events-filters-${name}`)
      for (const [query, field, message] of [
        ["type=Nope", "type", "Unknown event type"],
        ["created_from=yesterday", "created_from", "must be an ISO 8601 timestamp in UTC"],
        ["created_before=2031-13-01T00:00:00Z", "created_before", "must be an ISO 8601 timestamp in UTC"],
        ["resource_id=a&resource_id=b", "resource_id", "must be a string"],
        ["per_page=0", "per_page", "must be an integer greater than or equal to 1"],
      ] as const) {
        expectError(await service.request("GET", `/api/v1/events?${query}`, { token }), 400, field, message)
      }
    } finally {
      await service.close()
    }
  })
})
