import { once } from "node:events"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { JobId, verifyWebhookSignature, WorkspaceId } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectDocumentedShape } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * The operations Stripe and Svix users expect of a webhook endpoint, over real HTTP on SQLite and
 * Postgres: a test delivery sent during the request, the engine disabling an endpoint that failed
 * for five days (and telling the company's other endpoints), and recovering an endpoint's failed
 * deliveries. A receiver on loopback answers as each path is told to; the sandbox clock drives time.
 */
const sqlite = openTestSqlite({ file: true })
const postgres = openTestPostgres()

/** What the receiver got. */
interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

const received: Received[] = []
/** How each path answers: 200 unless told `fail` (500), `abort` (410 with abort-message) or `hang` (never). */
const answers = new Map<string, "fail" | "abort" | "hang">()
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const path = req.url ?? "/"
  received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString() })
  const answer = answers.get(path)
  if (answer === "hang") return
  if (answer === "abort") return res.writeHead(410, { "webhook-delivery": "abort-message" }).end("gone")
  res.writeHead(answer === "fail" ? 500 : 200).end(answer === "fail" ? "down" : "ok")
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

const day = 24 * 60 * 60

interface Endpoint {
  readonly id: string
  readonly active: boolean
  readonly webhook_secret: string
  readonly consecutive_failures: number
  readonly circuit_open_until: string | null
  readonly failing_since: string | null
  readonly disabled_reason: string | null
  readonly disabled_at: string | null
}

interface Delivery {
  readonly id: string
  readonly event_id: string
  readonly event_name: string
  readonly state: string
  readonly created_at: string
  readonly attempt_count: number
  readonly next_attempt_at: string | null
  readonly attempts: ReadonlyArray<{ readonly error: string | null; readonly status_code: number | null }>
}

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("webhook operations on %s", (name, factory) => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ storage: await factory(), sandbox: true, webhookTimeoutMs: 300 })
  })
  afterAll(() => service.close())

  /** A workspace with a company and its entity, whose renames write `entity.updated` events. */
  const tenant = async (workspace: string) => {
    const workspaceName = `${workspace}-${name}`
    let token = await service.signIn(workspaceName)
    const ok = async (path: string, body: unknown) => {
      const response = await service.request("POST", path, { token, body })
      expect(response.status, response.text).toBe(201)
      return response.body.data.id as string
    }
    const cid = await ok("/api/v1/companies", { name: "Hooks Inc", country: "US", default_currency: "USD" })
    const eid = await ok(`/api/v1/companies/${cid}/entities`, { name: "Hooks Inc", country_alpha2: "US" })
    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      service.request(method, path, { token, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) })
    const rename = async (to: string) =>
      expect((await call("PATCH", `/api/v1/companies/${cid}/entities/${eid}`, { name: to })).status).toBe(200)
    const endpointAt = async (path: string, events: ReadonlyArray<string>, companyId = cid) => {
      const response = await call("POST", `/api/v1/companies/${companyId}/webhook_endpoints`, {
        url: `${base}/${name}${path}`,
        event_names: events,
      })
      expect(response.status, response.text).toBe(201)
      return response.body.data as Endpoint
    }
    const endpoint = async (id: string) => {
      const response = await call("GET", `/api/v1/webhook_endpoints/${id}`)
      expect(response.status, response.text).toBe(200)
      return response.body.data as Endpoint
    }
    const deliveries = async (id: string) => {
      const response = await call("GET", `/api/v1/webhook_endpoints/${id}/deliveries?per_page=100`)
      expect(response.status, response.text).toBe(200)
      return response.body.data as Delivery[]
    }
    /**
     * Moves the workspace's clock and runs its jobs that became due: the workspace's time now. A
     * bearer token expires by the workspace's clock too, so a fresh one is taken.
     */
    const advance = async (seconds: number) => {
      const response = await call("POST", "/api/v1/sandbox/clock/advance", { seconds })
      expect(response.status, response.text).toBe(200)
      if (seconds > 0) token = await service.signIn(workspaceName)
      return response.body.data.now as string
    }
    return { workspaceName, token: () => token, cid, eid, call, rename, endpointAt, endpoint, deliveries, advance }
  }
  const at = (path: string) => received.filter((r) => r.path === `/${name}${path}`)
  const answer = (path: string, how: "fail" | "abort" | "hang" | "ok") =>
    how === "ok" ? answers.delete(`/${name}${path}`) : answers.set(`/${name}${path}`, how)
  const eventIdOf = (r: Received) => String(r.headers["webhook-id"])

  it("tests an endpoint: a signed test event sent during the request, its attempt answered, by both paths", async () => {
    const t = await tenant("ops-test")
    const target = await t.endpointAt("/test-ok", ["entity.updated"])
    const tested = await t.call("POST", `/api/v1/companies/${t.cid}/webhook_endpoints/${target.id}/test`)
    expect(tested.status, tested.text).toBe(200)
    expectDocumentedShape(service.routes, "testWebhookEndpoint", tested)
    // Sent before the answer, by no job: the test service runs none unless told.
    expect(at("/test-ok")).toHaveLength(1)
    const [request] = at("/test-ok")
    expect(tested.body.data).toMatchObject({
      outcome: "succeeded",
      status_code: 200,
      error: null,
      response_excerpt: "ok",
      delivery: { state: "succeeded", attempt_count: 1, event_name: "WebhookEndpointEvents::TestEvent" },
    })
    expect(tested.body.data.duration_ms).toEqual(expect.any(Number))
    // Every header a delivery carries, signed with the endpoint's secret, timestamp required.
    for (const header of [
      "service-signature",
      "service-event-id",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]) {
      expect(request!.headers[header], header).toEqual(expect.any(String))
    }
    expect(
      await verifyWebhookSignature(request!.body, request!.headers, target.webhook_secret, {
        requireTimestamp: true,
        now: service.clock.now(),
      }),
    ).toMatchObject({ valid: true, eventId: tested.body.data.delivery.event_id })
    expect(JSON.parse(request!.body)).toMatchObject({
      event: "WebhookEndpointEvents::TestEvent",
      company_id: t.cid,
      resource_id: target.id,
      data: { id: target.id, url: `${base}/${name}/test-ok` },
    })
    // It is an event of the workspace and a delivery of the endpoint's log, like any other.
    const events = await t.call("GET", "/api/v1/events?type=WebhookEndpointEvents::TestEvent")
    expect(events.body.data.map((e: { id: string }) => e.id)).toEqual([tested.body.data.delivery.event_id])
    expect((await t.deliveries(target.id)).map((d) => d.event_name)).toEqual(["WebhookEndpointEvents::TestEvent"])
    // The job kept in case the request died before writing its attempt went with that write: none runs, none sends.
    const later = await t.call("POST", "/api/v1/sandbox/clock/advance", { seconds: 300 })
    expect(later.body.data.jobs_run).toBe(0)
    expect(at("/test-ok")).toHaveLength(1)

    // The workspace path; a key's retry answers the first answer without sending again.
    const keyed = () =>
      t.call("POST", `/api/v1/webhook_endpoints/${target.id}/test`, undefined, { "Idempotency-Key": "test-once" })
    const first = await keyed()
    expect(first.status, first.text).toBe(200)
    expect((await keyed()).body).toEqual(first.body)
    expect(at("/test-ok")).toHaveLength(2)

    // Another workspace's endpoint is not found; a read-only key may not test.
    const stranger = await tenant("ops-test-stranger")
    const foreign = await stranger.call("POST", `/api/v1/webhook_endpoints/${target.id}/test`)
    expect(foreign.status).toBe(404)
    expect(foreign.body.error).toMatchObject({ code: "not_found", details: [{ field: "id" }] })
    const reader = await service.signIn(t.workspaceName, "read")
    const readOnly = await service.request("POST", `/api/v1/webhook_endpoints/${target.id}/test`, { token: reader })
    expect(readOnly.status).toBe(403)
    expect(at("/test-ok")).toHaveLength(2)
  })

  it("tests a failing endpoint: the failure answered, counted toward its circuit, and retried on the schedule", async () => {
    const t = await tenant("ops-test-failing")
    const down = await t.endpointAt("/test-down", ["entity.updated"])
    answer("/test-down", "fail")
    const failed = await t.call("POST", `/api/v1/webhook_endpoints/${down.id}/test`)
    expect(failed.status, failed.text).toBe(200)
    expect(failed.body.data).toMatchObject({
      outcome: "failed",
      status_code: 500,
      error: null,
      delivery: { state: "pending", attempt_count: 1 },
    })
    const now = (await t.advance(0)) as string
    expect(Date.parse(failed.body.data.delivery.next_attempt_at) - Date.parse(now)).toBe(60_000)
    expect(await t.endpoint(down.id)).toMatchObject({ consecutive_failures: 1, failing_since: now })
    // A receiver that never answers: the attempt ends at the transport's timeout.
    const hanging = await t.endpointAt("/test-hang", ["entity.updated"])
    answer("/test-hang", "hang")
    const timedOut = await t.call("POST", `/api/v1/webhook_endpoints/${hanging.id}/test`)
    expect(timedOut.body.data).toMatchObject({ outcome: "failed", status_code: null, error: "timeout" })
    // Inactive, it is still tested (a receiver is checked before re-activating), and a 200 closes its circuit.
    await t.call("PATCH", `/api/v1/webhook_endpoints/${down.id}`, { active: false })
    answer("/test-down", "ok")
    const back = await t.call("POST", `/api/v1/webhook_endpoints/${down.id}/test`)
    expect(back.body.data).toMatchObject({ outcome: "succeeded", status_code: 200 })
    expect(await t.endpoint(down.id)).toMatchObject({ active: false, consecutive_failures: 0, failing_since: null })
    // The first test's retry: the endpoint is inactive, so it fails unsent.
    const before = at("/test-down").length
    await t.advance(60)
    expect(at("/test-down")).toHaveLength(before)
    const retried = (await t.deliveries(down.id)).find((d) => d.event_id === failed.body.data.delivery.event_id)
    expect(retried).toMatchObject({ state: "failed", attempt_count: 1 })
    expect(retried!.attempts.at(-1)).toMatchObject({ error: "endpoint_disabled" })
  })

  it("disables an endpoint whose every attempt failed for five days, tells the company's other endpoints, and re-enables it on PATCH", async () => {
    const t = await tenant("ops-disable")
    const failing = await t.endpointAt("/disable-down", ["entity.updated"])
    answer("/disable-down", "fail")
    const watcher = await t.endpointAt("/disable-watcher", ["WebhookEndpointEvents::DisabledEvent"])
    // Another company of the workspace: its endpoints are not told of this company's.
    const other = await t.call("POST", "/api/v1/companies", { name: "Other", country: "US", default_currency: "USD" })
    await t.endpointAt("/disable-other-company", ["WebhookEndpointEvents::DisabledEvent"], other.body.data.id)

    for (let i = 0; i < 5; i++) await t.rename(`Failing ${i}`)
    const start = await t.advance(0)
    expect(at("/disable-down")).toHaveLength(5)
    expect(await t.endpoint(failing.id)).toMatchObject({ consecutive_failures: 5, failing_since: start })

    // A minute short of five days, still failing: still active.
    await t.advance(5 * day - 60)
    expect(await t.endpoint(failing.id)).toMatchObject({ active: true, disabled_reason: null, failing_since: start })
    expect(at("/disable-watcher")).toHaveLength(0)

    // The next attempt after five days fails: the endpoint is disabled, with why and when.
    const sentBefore = at("/disable-down").length
    const now = await t.advance(3600)
    const disabled = await t.endpoint(failing.id)
    expect(disabled).toMatchObject({ active: false, disabled_reason: "deliveries_failing", failing_since: start })
    expect(Date.parse(disabled.disabled_at!)).toBeGreaterThanOrEqual(Date.parse(start) + 5 * day * 1000)
    expect(Date.parse(disabled.disabled_at!)).toBeLessThanOrEqual(Date.parse(now))
    expect(at("/disable-down").length).toBe(sentBefore + 1)

    // Its event reached the company's other endpoint, and is in the events API; nobody else got it.
    const told = at("/disable-watcher")
    expect(told).toHaveLength(1)
    expect(JSON.parse(told[0]!.body)).toEqual({
      event: "WebhookEndpointEvents::DisabledEvent",
      timestamp: disabled.disabled_at,
      company_id: t.cid,
      resource_id: failing.id,
      data: {
        id: failing.id,
        url: `${base}/${name}/disable-down`,
        disabled_reason: "deliveries_failing",
        disabled_at: disabled.disabled_at,
        failing_since: start,
        consecutive_failures: disabled.consecutive_failures,
      },
    })
    expect(at("/disable-other-company")).toHaveLength(0)
    const events = await t.call("GET", "/api/v1/events?type=WebhookEndpointEvents::DisabledEvent")
    expect(events.body.data.map((e: { resource_id: string }) => e.resource_id)).toEqual([failing.id])

    // Disabled, it gets no further attempt: what was pending fails unsent, and a new event goes nowhere.
    await t.rename("After disabling")
    await t.advance(2 * 3600)
    expect(at("/disable-down").length).toBe(sentBefore + 1)
    const log = await t.deliveries(failing.id)
    expect(log.filter((d) => d.state === "pending")).toEqual([])
    expect(log.filter((d) => d.attempts.at(-1)?.error === "endpoint_disabled").length).toBeGreaterThan(0)
    expect(await t.endpoint(watcher.id)).toMatchObject({ active: true, consecutive_failures: 0 })

    // The user re-enables it: the reason is cleared and its failures forgotten; new events go at once.
    answer("/disable-down", "ok")
    const enabled = await t.call("PATCH", `/api/v1/companies/${t.cid}/webhook_endpoints/${failing.id}`, {
      active: true,
    })
    expect(enabled.status, enabled.text).toBe(200)
    expect(enabled.body.data).toMatchObject({
      active: true,
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
      circuit_open_until: null,
      failing_since: null,
    })
    await t.rename("Enabled again")
    await t.advance(0)
    expect(JSON.parse(at("/disable-down").at(-1)!.body)).toMatchObject({ data: { name: "Enabled again" } })
    // Told once only.
    expect(at("/disable-watcher")).toHaveLength(1)
  })

  it("re-enables an endpoint the engine disabled by toggling it on too", async () => {
    const t = await tenant("ops-toggle")
    const failing = await t.endpointAt("/toggle-down", ["entity.updated"])
    answer("/toggle-down", "fail")
    for (let i = 0; i < 5; i++) await t.rename(`Failing ${i}`)
    await t.advance(0)
    await t.advance(5 * day)
    expect(await t.endpoint(failing.id)).toMatchObject({ active: false, disabled_reason: "deliveries_failing" })
    const toggled = await t.call("PATCH", `/api/v1/webhook_endpoints/${failing.id}/toggle`)
    expect(toggled.body.data).toMatchObject({ active: true, disabled_reason: null, consecutive_failures: 0 })
  })

  it("recovers exactly the endpoint's failed deliveries of the window, once each, keeping their event ids", async () => {
    const t = await tenant("ops-recover")
    const target = await t.endpointAt("/recover", ["entity.updated"])
    const path = `/api/v1/companies/${t.cid}/webhook_endpoints/${target.id}`
    // Before the window: a delivery the receiver refuses for good.
    answer("/recover", "abort")
    await t.rename("Before the window")
    await t.advance(0)
    const since = await t.advance(3600)
    // In the window: three refused, one delivered, one still pending its retry.
    for (let i = 0; i < 3; i++) await t.rename(`Refused ${i}`)
    await t.advance(0)
    answer("/recover", "ok")
    await t.rename("Delivered")
    await t.advance(0)
    answer("/recover", "fail")
    await t.rename("Pending")
    await t.advance(0)
    const log = await t.deliveries(target.id)
    const failed = log.filter((d) => d.state === "failed")
    expect(failed).toHaveLength(4)
    const inWindow = failed.filter((d) => d.created_at >= since).map((d) => d.event_id)
    expect(inWindow).toHaveLength(3)
    expect(log.filter((d) => d.state === "pending")).toHaveLength(1)
    // Half a minute on: the window ends now, before the pending one's retry is due.
    await t.advance(30)

    answer("/recover", "ok")
    const sentBefore = at("/recover").length
    const recovered = await t.call("POST", `${path}/recover`, { since })
    expect(recovered.status, recovered.text).toBe(202)
    expectDocumentedShape(service.routes, "recoverWebhookDeliveries", recovered)
    const recovery = recovered.body.data
    expect(recovery).toMatchObject({ status: "queued", since, until: expect.any(String), deliveries_queued: 0 })
    // The job may run twice (its process died before its end was recorded): a second run of it queues nothing.
    await service.storage.transaction((tx) =>
      tx.jobs.enqueue({
        id: JobId.make(`job_recover_again_${name}`),
        kind: "recover_webhook_deliveries",
        payload: JSON.stringify({ recovery_id: recovery.id, workspace_id: workspaceOf(t) }),
        run_at: service.clock.now().toISOString(),
        key: null,
        max_attempts: 5,
        created_at: service.clock.now().toISOString(),
        workspace_id: WorkspaceId.make(workspaceOf(t)),
        queue: `recover_webhook_deliveries:${workspaceOf(t)}`,
      }),
    )
    await t.advance(0)
    const resent = at("/recover").slice(sentBefore)
    expect(resent.map(eventIdOf).sort()).toEqual([...inWindow].sort())
    const followed = await t.call("GET", `/api/v1/webhook_endpoints/${target.id}/recoveries/${recovery.id}`)
    expect(followed.status, followed.text).toBe(200)
    expectDocumentedShape(service.routes, "getWebhookRecoveryInWorkspace", followed)
    expect(followed.body.data).toMatchObject({ id: recovery.id, status: "completed", deliveries_queued: 3 })
    expect(followed.body.data.completed_at).toEqual(expect.any(String))
    const after = await t.deliveries(target.id)
    for (const id of inWindow) expect(after.find((d) => d.event_id === id)).toMatchObject({ state: "succeeded" })

    // Recovering again while they are delivered, or twice at once, sends nothing twice.
    answer("/recover", "abort")
    await t.rename("Refused again")
    await t.advance(0)
    await t.advance(1)
    answer("/recover", "ok")
    const twice = await Promise.all([0, 1].map(() => t.call("POST", `${path}/recover`, { since })))
    expect(twice.map((r) => r.status)).toEqual([202, 202])
    const beforeTwice = at("/recover").length
    await t.advance(0)
    expect(at("/recover").length).toBe(beforeTwice + 1)
    const counts = await Promise.all(
      twice.map(async (r) => (await t.call("GET", `${path}/recoveries/${r.body.data.id}`)).body.data.deliveries_queued),
    )
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(1)
  })

  it("refuses a recovery window too old, in the future or backwards, or of an inactive endpoint, in the webhook shape", async () => {
    const t = await tenant("ops-recover-refused")
    const target = await t.endpointAt("/recover-refused", ["entity.updated"])
    const now = Date.parse(await t.advance(0))
    const iso = (seconds: number) => new Date(now + seconds * 1000).toISOString()
    const recover = (body: unknown) => t.call("POST", `/api/v1/webhook_endpoints/${target.id}/recover`, body)
    const refused = async (body: unknown, details: ReadonlyArray<{ field: string; message: string }>) => {
      const response = await recover(body)
      expect(response.status, response.text).toBe(422)
      expect(response.body.error).toMatchObject({ code: "validation_error", details })
    }
    await refused({}, [{ field: "since", message: "Since is required" }])
    await refused({ since: "yesterday" }, [{ field: "since", message: "must be an ISO 8601 timestamp in UTC" }])
    await refused({ since: iso(-15 * day) }, [{ field: "since", message: "must be at most 14 days ago" }])
    await refused({ since: iso(60) }, [
      { field: "since", message: "must not be in the future" },
      { field: "until", message: "must be after since" },
    ])
    await refused({ since: iso(-3600), until: iso(-7200) }, [{ field: "until", message: "must be after since" }])
    await refused({ since: iso(-3600), until: iso(3600) }, [{ field: "until", message: "must not be in the future" }])
    expect((await recover({ since: iso(-14 * day) })).status).toBe(202)
    await t.call("PATCH", `/api/v1/webhook_endpoints/${target.id}/toggle`)
    await refused({ since: iso(-3600) }, [
      { field: "active", message: "Endpoint is inactive: activate it before recovering its deliveries" },
    ])
    // Another workspace's endpoint and recovery are not found.
    const stranger = await tenant("ops-recover-stranger")
    const foreign = await stranger.call("POST", `/api/v1/webhook_endpoints/${target.id}/recover`, { since: iso(-60) })
    expect(foreign.status).toBe(404)
    const unknown = await t.call("GET", `/api/v1/webhook_endpoints/${target.id}/recoveries/wer_unknown`)
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toMatchObject({ code: "not_found", details: [{ field: "recovery_id" }] })
  })
})

/** The workspace id of a tenant, as its token names it. */
const workspaceOf = (t: { readonly token: () => string }): string =>
  JSON.parse(Buffer.from(t.token().split(".")[1]!, "base64url").toString()).workspace_id as string
