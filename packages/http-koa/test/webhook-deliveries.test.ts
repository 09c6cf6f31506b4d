import { once } from "node:events"
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { type JobRequest, type Storage, verifyWebhookSignature } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import {
  advanceClock,
  createQuote,
  expectDocumentedShape,
  type Payer,
  paymentBody,
  setUpPayer,
} from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * Webhook deliveries over real HTTP, on SQLite and Postgres: a receiver on loopback (sandbox mode
 * allows it) answers as each path says; the sandbox clock drives the retry schedule.
 */
const sqlite = openTestSqlite({ file: true })
const postgres = openTestPostgres()

/** What the receiver got. */
interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

const received: Received[] = []
/** Status each path answers with, 200 unless set; `hang` never answers; `hold` waits in `held`. */
const answers = new Map<string, number | "hang" | "abort" | "hold">()
/** Requests answered `hold`, not answered yet: a test ends each when it chooses. */
const held: Array<ServerResponse> = []
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const path = req.url ?? "/"
  received.push({ path, headers: req.headers, body: Buffer.concat(chunks) })
  const answer = answers.get(path) ?? 200
  if (answer === "hang") return
  if (answer === "hold") return void held.push(res)
  if (answer === "abort") return res.writeHead(410, { "webhook-delivery": "abort-message" }).end("gone")
  res.writeHead(answer, answer === 302 ? { Location: "http://127.0.0.1:1/elsewhere" } : {}).end(`answer ${answer}`)
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
  await sqlite.close()
  await postgres.close()
})

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("webhook deliveries on %s", (name, factory) => {
  let service: TestService
  let storage: KyselyStorage
  /** While set, queuing a delivery job fails, as a database failing mid-transaction would. */
  let failDeliveryJobs = false
  beforeAll(async () => {
    storage = (await factory()) as KyselyStorage
    const failing: Storage = {
      capabilities: storage.capabilities,
      transaction: (work) =>
        storage.transaction((tx) =>
          work(
            new Proxy(tx, {
              get: (target, name) =>
                name !== "jobs"
                  ? Reflect.get(target, name)
                  : {
                      ...target.jobs,
                      enqueue: (job: JobRequest) =>
                        failDeliveryJobs && job.kind === "deliver_webhook"
                          ? Promise.reject(new Error("test: the database fails"))
                          : target.jobs.enqueue(job),
                    },
            }),
          ),
        ),
      createJobRunner: (handlers, options) => storage.createJobRunner(handlers, options),
      close: () => storage.close(),
    }
    service = await startTestService({ storage: failing, sandbox: true, webhookTimeoutMs: 500 })
  })
  afterAll(() => service.close())

  const endpointAt = async (payer: Payer, path: string, events: ReadonlyArray<string>) => {
    const response = await service.request("POST", `/api/v1/companies/${payer.cid}/webhook_endpoints`, {
      token: payer.token,
      body: { url: `${base}/${name}${path}`, event_names: events },
    })
    expect(response.status, response.text).toBe(201)
    return response.body.data as { id: string; webhook_secret: string }
  }
  const deliveriesOf = async (payer: Payer, endpointId: string) => {
    const response = await service.request("GET", `/api/v1/webhook_endpoints/${endpointId}/deliveries`, {
      token: payer.token,
    })
    expect(response.status, response.text).toBe(200)
    return response
  }
  const renameEntity = (payer: Payer, name: string) =>
    service.request("PATCH", `/api/v1/companies/${payer.cid}/entities/${payer.eid}`, {
      token: payer.token,
      body: { name },
    })
  const at = (path: string) => received.filter((r) => r.path === `/${name}${path}`)
  const answer = (path: string, with_: number | "hang" | "abort" | "hold") => answers.set(`/${name}${path}`, with_)

  it("delivers the events an endpoint subscribes to, once each, as the outbox has them, signed both ways", async () => {
    const payer = await setUpPayer(service, "webhooks-deliver")
    const endpoint = await endpointAt(payer, "/deliver", [
      "BankAccountEvents::CreatedEvent",
      "PaymentEvents::DebitInitiatedEvent",
      "PaymentEvents::CompletedEvent",
    ])
    const quote = await createQuote(service, payer, 12)
    const paid = await service.request("POST", `/api/v1/companies/${payer.cid}/payments`, {
      token: payer.token,
      body: paymentBody(quote, "wh-1"),
    })
    expect(paid.status, paid.text).toBe(201)
    await advanceClock(service, payer.token, 0)
    // A lane sends several at once: they may arrive in any order (README), so in event order here.
    const eventId = (r: Received) => String(r.headers["service-event-id"])
    const got = at("/deliver").sort((a, b) => (eventId(a) < eventId(b) ? -1 : 1))
    // The bank accounts were made before the endpoint: their events are not its to receive.
    expect(got.map((r) => JSON.parse(r.body.toString()).event)).toEqual([
      "PaymentEvents::DebitInitiatedEvent",
      "PaymentEvents::CompletedEvent",
    ])
    const outbox = await storage.db
      .selectFrom("events")
      .select(["id", "payload"])
      .where("company_id", "=", payer.cid as never)
      .where("resource_id", "=", paid.body.data.id)
      .orderBy("id")
      .execute()
    for (const [i, delivery] of got.entries()) {
      expect(delivery.body.toString()).toBe(outbox[i]!.payload)
      expect(delivery.headers["service-event-id"]).toBe(outbox[i]!.id)
      expect(delivery.headers["content-type"]).toBe("application/json")
      const now = service.clock.now()
      expect(await verifyWebhookSignature(delivery.body, delivery.headers, endpoint.webhook_secret, { now })).toEqual({
        valid: true,
        eventId: outbox[i]!.id,
        by: "webhook-signature",
      })
      const { "webhook-signature": _, ...spec } = delivery.headers
      expect(await verifyWebhookSignature(delivery.body, spec, endpoint.webhook_secret)).toMatchObject({
        valid: true,
        by: "Service-Signature",
      })
    }
    const log = await deliveriesOf(payer, endpoint.id)
    expectDocumentedShape(service.routes, "listWebhookDeliveriesInWorkspace", log)
    expect(log.body.data).toHaveLength(2)
    for (const delivery of log.body.data) {
      expect(delivery).toMatchObject({
        state: "succeeded",
        attempt_count: 1,
        last_status_code: 200,
        next_attempt_at: null,
      })
      expect(delivery.attempts).toEqual([
        expect.objectContaining({ number: 1, status_code: 200, error: null, response_excerpt: "answer 200" }),
      ])
    }
    // Nothing is due any more: each was delivered once.
    await advanceClock(service, payer.token, 600)
    expect(at("/deliver")).toHaveLength(2)
  })

  it("retries a failing receiver at +1, +5, +25 and +125 minutes with the same bytes and signature, then fails", async () => {
    let payer = await setUpPayer(service, "webhooks-retry")
    const endpoint = await endpointAt(payer, "/retry", ["entity.updated"])
    answer("/retry", 500)
    expect((await renameEntity(payer, "Renamed Payer")).status).toBe(200)
    await advanceClock(service, payer.token, 0)
    expect(at("/retry")).toHaveLength(1)
    let [delivery] = (await deliveriesOf(payer, endpoint.id)).body.data
    expect(delivery).toMatchObject({ state: "pending", attempt_count: 1, last_status_code: 500 })
    expect(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.attempts[0].attempted_at)).toBe(60_000)
    // On Postgres a job falls due by the database's clock too: the test clock's moves are taken off
    // its due time, and the real seconds a loaded machine spends between them count as well. So
    // the exact delay is read from the delivery, and the sends are watched a margin either side.
    const margin = 30
    await advanceClock(service, payer.token, 60 - margin)
    expect(at("/retry")).toHaveLength(1)
    await advanceClock(service, payer.token, margin)
    expect(at("/retry")).toHaveLength(2)
    /** Moves the sandbox clock in half hours, signed in again for each: hours outlive a token. */
    const advance = async (seconds: number) => {
      for (let left = seconds; left > 0; left -= 1800) {
        payer = { ...payer, token: await service.signIn("webhooks-retry") }
        await advanceClock(service, payer.token, Math.min(left, 1800))
      }
    }
    for (const [minutes, count] of [
      [4, 3],
      [20, 4],
      [100, 5],
    ] as const) {
      ;[delivery] = (await deliveriesOf(payer, endpoint.id)).body.data
      const lastAttempt = Date.parse(delivery.attempts.at(-1).attempted_at)
      expect(Date.parse(delivery.next_attempt_at) - lastAttempt).toBe(minutes * 60_000)
      await advance(minutes * 60 - margin)
      expect(at("/retry")).toHaveLength(count - 1)
      await advance(margin)
      expect(at("/retry")).toHaveLength(count)
    }
    const sent = at("/retry")
    expect(sent).toHaveLength(5)
    for (const retry of sent.slice(1)) {
      expect(retry.body.equals(sent[0]!.body)).toBe(true)
      expect(retry.headers["service-signature"]).toBe(sent[0]!.headers["service-signature"])
      expect(retry.headers["service-event-id"]).toBe(sent[0]!.headers["service-event-id"])
    }
    ;[delivery] = (await deliveriesOf(payer, endpoint.id)).body.data
    expect(delivery).toMatchObject({ state: "failed", attempt_count: 5, last_status_code: 500, next_attempt_at: null })
    expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 500, 500, 500])
    await advance(6 * 3600)
    expect(at("/retry")).toHaveLength(5)
  })

  it("counts only a 200: a 201, a redirect (not followed) and a timeout are failed attempts; abort-message stops the retries", async () => {
    const payer = await setUpPayer(service, "webhooks-answers")
    const paths = { "/created": 201, "/moved": 302, "/hang": "hang", "/abort": "abort" } as const
    const endpoints: Record<string, string> = {}
    for (const [path, reply] of Object.entries(paths)) {
      answer(path, reply)
      endpoints[path] = (await endpointAt(payer, path, ["entity.updated"])).id
    }
    expect((await renameEntity(payer, "Renamed Again")).status).toBe(200)
    await advanceClock(service, payer.token, 0)
    const first = async (path: string) => (await deliveriesOf(payer, endpoints[path]!)).body.data[0]
    expect(await first("/created")).toMatchObject({ state: "pending", last_status_code: 201 })
    expect(await first("/moved")).toMatchObject({ state: "pending", last_status_code: 302 })
    expect(received.filter((r) => r.path === "/elsewhere")).toHaveLength(0)
    const hung = await first("/hang")
    expect(hung).toMatchObject({ state: "pending", last_status_code: null })
    expect(hung.attempts[0]).toMatchObject({ status_code: null, error: "timeout" })
    expect(await first("/abort")).toMatchObject({ state: "failed", attempt_count: 1, last_status_code: 410 })
    await advanceClock(service, payer.token, 60)
    expect(at("/abort")).toHaveLength(1)
    expect(at("/created")).toHaveLength(2)
  })

  it("sends nothing more of what a lane holds once its endpoint is deactivated mid-lane", async () => {
    const payer = await setUpPayer(service, "webhooks-mid-lane")
    const endpoint = await endpointAt(payer, "/mid-lane", ["entity.updated"])
    answer("/mid-lane", "hold")
    for (let i = 0; i < 12; i++) expect((await renameEntity(payer, `Mid Lane ${i}`)).status).toBe(200)
    // One lane takes all twelve and sends ten at once; the receiver holds those ten.
    const running = service.runJobs()
    await vi.waitFor(() => expect(at("/mid-lane")).toHaveLength(10), { timeout: 10_000 })
    const toggled = await service.request("PATCH", `/api/v1/webhook_endpoints/${endpoint.id}/toggle`, {
      token: payer.token,
    })
    expect(toggled.body.data.active).toBe(false)
    for (const res of held.splice(0)) res.writeHead(500).end()
    await running
    // The two the lane had not sent yet are never sent: they fail unsent.
    expect(at("/mid-lane")).toHaveLength(10)
    const deliveries = (await deliveriesOf(payer, endpoint.id)).body.data as Array<{
      state: string
      attempt_count: number
      attempts: Array<{ error: string | null }>
    }>
    const unsent = deliveries.filter((d) => d.attempt_count === 0)
    expect(unsent).toHaveLength(2)
    for (const d of unsent) {
      expect(d.state).toBe("failed")
      expect(d.attempts.at(-1)).toMatchObject({ error: "endpoint_disabled" })
    }
  })

  it("stops delivering to an endpoint deactivated or deleted, and a resend sends one again now whatever its state", async () => {
    const payer = await setUpPayer(service, "webhooks-stop")
    const kept = await endpointAt(payer, "/kept", ["entity.updated"])
    const paused = await endpointAt(payer, "/paused", ["entity.updated"])
    answer("/kept", 500)
    const toggled = await service.request("PATCH", `/api/v1/webhook_endpoints/${paused.id}/toggle`, {
      token: payer.token,
    })
    expect(toggled.body.data.active).toBe(false)
    expect((await renameEntity(payer, "Third Name")).status).toBe(200)
    await advanceClock(service, payer.token, 0)
    expect(at("/paused")).toHaveLength(0)
    expect((await deliveriesOf(payer, paused.id)).body.data).toEqual([])

    // Delivered, then the endpoint deactivated: its retry is not sent.
    let [delivery] = (await deliveriesOf(payer, kept.id)).body.data
    expect(delivery).toMatchObject({ state: "pending", attempt_count: 1 })
    await service.request("PATCH", `/api/v1/webhook_endpoints/${kept.id}/toggle`, { token: payer.token })
    await advanceClock(service, payer.token, 60)
    expect(at("/kept")).toHaveLength(1)
    ;[delivery] = (await deliveriesOf(payer, kept.id)).body.data
    expect(delivery).toMatchObject({ state: "failed", attempt_count: 1 })
    expect(delivery.attempts.at(-1)).toMatchObject({ error: "endpoint_disabled" })

    // Active again and answering: a resend delivers it now.
    await service.request("PATCH", `/api/v1/webhook_endpoints/${kept.id}/toggle`, { token: payer.token })
    answer("/kept", 200)
    const retry = await service.request(
      "POST",
      `/api/v1/companies/${payer.cid}/webhook_endpoints/${kept.id}/deliveries/${delivery.id}/retry`,
      { token: payer.token },
    )
    expect(retry.status, retry.text).toBe(202)
    expectDocumentedShape(service.routes, "retryWebhookDelivery", retry)
    expect(retry.body.data).toMatchObject({ id: delivery.id, state: "pending" })
    await advanceClock(service, payer.token, 0)
    expect(at("/kept")).toHaveLength(2)
    ;[delivery] = (await deliveriesOf(payer, kept.id)).body.data
    expect(delivery).toMatchObject({ state: "succeeded", attempt_count: 2, last_status_code: 200 })

    // Another workspace's delivery log and resend are not found.
    const stranger = await service.signIn("webhooks-stranger")
    for (const [method, path] of [
      ["GET", `/api/v1/webhook_endpoints/${kept.id}/deliveries`],
      ["POST", `/api/v1/webhook_endpoints/${kept.id}/deliveries/${delivery.id}/retry`],
    ] as const) {
      const answer = await service.request(method, path, { token: stranger })
      expect(answer.status).toBe(404)
      expect(answer.body.error.code).toBe("not_found")
    }
    const unknown = await service.request("POST", `/api/v1/webhook_endpoints/${kept.id}/deliveries/whd_unknown/retry`, {
      token: payer.token,
    })
    expect(unknown.status).toBe(404)
  })

  it("rotates a secret: shown once, and for 24 hours deliveries are signed with both, the new one in Service-Signature", async () => {
    let payer = await setUpPayer(service, "webhooks-rotate")
    const endpoint = await endpointAt(payer, "/rotate", ["entity.updated"])
    const rotated = await service.request("POST", `/api/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, {
      token: payer.token,
    })
    expect(rotated.status, rotated.text).toBe(200)
    expectDocumentedShape(service.routes, "rotateWebhookSecretInWorkspace", rotated)
    const fresh = rotated.body.data.webhook_secret as string
    expect(fresh).toMatch(/^whsec_[0-9a-z]{32}$/)
    expect(fresh).not.toBe(endpoint.webhook_secret)
    const got = await service.request("GET", `/api/v1/webhook_endpoints/${endpoint.id}`, { token: payer.token })
    expect(got.text).not.toContain(fresh)

    const deliverOne = async (name: string) => {
      expect((await renameEntity(payer, name)).status).toBe(200)
      await advanceClock(service, payer.token, 0)
      return at("/rotate").at(-1)!
    }
    const verify = (delivery: Received, secret: string, headers = delivery.headers) =>
      verifyWebhookSignature(delivery.body, headers, secret, { now: service.clock.now() })
    const within = await deliverOne("Rotated Once")
    expect(String(within.headers["webhook-signature"]).split(" ")).toHaveLength(2)
    const specOnly = { "service-signature": within.headers["service-signature"] }
    expect((await verify(within, fresh)).valid).toBe(true)
    expect((await verify(within, endpoint.webhook_secret)).valid).toBe(true)
    expect((await verify(within, fresh, specOnly)).valid).toBe(true)
    expect((await verify(within, endpoint.webhook_secret, specOnly)).valid).toBe(false)

    // A day later the old secret signs nothing.
    payer = { ...payer, token: await service.signIn("webhooks-rotate") }
    await advanceClock(service, payer.token, 24 * 3600)
    payer = { ...payer, token: await service.signIn("webhooks-rotate") }
    const after = await deliverOne("Rotated Long Ago")
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1)
    expect((await verify(after, fresh)).valid).toBe(true)
    expect((await verify(after, endpoint.webhook_secret)).valid).toBe(false)
  })

  it("fails the deliveries a crashed lane held when its endpoint is deactivated before the lane runs again", async () => {
    const payer = await setUpPayer(service, "webhooks-held")
    const endpoint = await endpointAt(payer, "/held", ["entity.updated"])
    for (const name of ["Held One", "Held Two", "Held Three"])
      expect((await renameEntity(payer, name)).status).toBe(200)
    const rows = await storage.db
      .selectFrom("webhook_deliveries")
      .select("id")
      .where("endpoint_id", "=", endpoint.id as never)
      .orderBy("id")
      .execute()
    expect(rows).toHaveLength(3)
    // As a lane headed by the first leaves them when its process dies before it writes.
    const head = rows[0]!.id
    await storage.db
      .updateTable("webhook_deliveries")
      .set({ lane_id: head })
      .where("endpoint_id", "=", endpoint.id as never)
      .execute()
    await service.request("PATCH", `/api/v1/webhook_endpoints/${endpoint.id}/toggle`, { token: payer.token })
    await advanceClock(service, payer.token, 0)
    expect(at("/held")).toHaveLength(0)
    const log = (await deliveriesOf(payer, endpoint.id)).body.data
    expect(log.map((d: { state: string }) => d.state)).toEqual(["failed", "failed", "failed"])
    for (const delivery of log) expect(delivery.attempts.at(-1)).toMatchObject({ error: "endpoint_disabled" })
  })

  it("sends nothing for a change whose transaction rolled back after its delivery was written", async () => {
    const payer = await setUpPayer(service, "webhooks-rollback")
    const endpoint = await endpointAt(payer, "/rollback", ["entity.updated"])
    failDeliveryJobs = true
    const failed = await renameEntity(payer, "Rolled Back")
    failDeliveryJobs = false
    expect(failed.status).toBe(500)
    const kept = await renameEntity(payer, "Committed")
    expect(kept.status, kept.text).toBe(200)
    await advanceClock(service, payer.token, 0)
    expect(at("/rollback").map((r) => JSON.parse(r.body.toString()).data.name)).toEqual(["Committed"])
    const log = await deliveriesOf(payer, endpoint.id)
    expect(log.body.data.map((d: { state: string }) => d.state)).toEqual(["succeeded"])
    const names = (
      await storage.db
        .selectFrom("events")
        .select("payload")
        .where("company_id", "=", payer.cid as never)
        .execute()
    )
      .map((row) => JSON.parse(row.payload))
      .filter((payload) => payload.event === "entity.updated")
      .map((payload) => payload.data.name)
    expect(names).toEqual(["Committed"])
  })

  it("delivers a batch's one completion event, and none of its payments' own", async () => {
    const payer = await setUpPayer(service, "webhooks-batch")
    await endpointAt(payer, "/batch", [
      "PaymentEvents::DebitInitiatedEvent",
      "PaymentEvents::CompletedEvent",
      "PaymentEvents::FailedEvent",
      "PaymentBatchCompletedEvent",
    ])
    const batches = `/api/v1/companies/${payer.cid}/payment_batches`
    const batch = await service.request("POST", batches, { token: payer.token, body: {} })
    expect(batch.status, batch.text).toBe(201)
    for (const [i, amount] of [10, 11.13].entries()) {
      const quote = await createQuote(service, payer, amount)
      const paid = await service.request("POST", `/api/v1/companies/${payer.cid}/payments`, {
        token: payer.token,
        body: paymentBody(quote, `wh-batch-${i}`, { payment_batch_id: batch.body.data.id }),
      })
      expect(paid.status, paid.text).toBe(201)
    }
    const processed = await service.request("POST", `${batches}/${batch.body.data.id}/process_batch`, {
      token: payer.token,
    })
    expect(processed.status, processed.text).toBe(202)
    await advanceClock(service, payer.token, 0)
    const events = at("/batch").map((r) => JSON.parse(r.body.toString()))
    expect(events.map((e) => e.event)).toEqual(["PaymentBatchCompletedEvent"])
    expect(events[0]).toMatchObject({ resource_id: batch.body.data.id, company_id: payer.cid })
  })
})
