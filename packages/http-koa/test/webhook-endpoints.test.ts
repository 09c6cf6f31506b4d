import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { webhookEventNames } from "@payments-engine/core/effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isoTimestamp } from "./support/expectations.ts"
import { expectDocumentedShape } from "./support/payment-fixtures.ts"
import { acme, startTestService, type TestResponse, type TestService } from "./support/test-service.ts"

/**
 * Webhook endpoints and the event catalogue over HTTP on a real socket, on SQLite and Postgres:
 * what a client sees (the secret once, both path forms, the webhook error shape, paging meta,
 * tenancy), and that the stored row holds no readable secret.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

/** Asserts the webhook routes' error shape with exactly these details. */
const expectWebhookError = (
  response: TestResponse,
  status: number,
  code: string,
  details: ReadonlyArray<{ field: string; message: string }>,
) => {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error: { code, message: details.length === 1 ? details[0]!.message : "Validation failed", details } },
  })
}

const completed = "PaymentEvents::CompletedEvent"
const batchDone = "PaymentBatchCompletedEvent"

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("webhook endpoints on %s", (_name, factory) => {
  let service: TestService
  let production: TestService
  let storage: KyselyStorage
  beforeAll(async () => {
    storage = (await factory()) as KyselyStorage
    service = await startTestService({ storage, sandbox: true })
    production = await startTestService({ storage, sandbox: false })
  })
  afterAll(async () => {
    await service.close()
    await production.close()
  })

  /** A workspace with one company, signed in. */
  const client = async (workspace: string, on: TestService = service) => {
    const token = await on.signIn(workspace)
    const company = await on.request("POST", "/api/v1/companies", { token, body: acme })
    expect(company.status, company.text).toBe(201)
    const cid = company.body.data.id as string
    const base = `/api/v1/companies/${cid}/webhook_endpoints`
    return {
      token,
      cid,
      base,
      create: (body: unknown) => on.request("POST", base, { token, body }),
      call: (method: string, path: string, body?: unknown) =>
        on.request(method, path, { token, ...(body === undefined ? {} : { body }) }),
    }
  }

  it("creates an endpoint, shows its secret once, and subscribes it to the named events", async () => {
    const c = await client("webhooks-create")
    const created = await c.create({ url: "https://example.com/hooks", event_names: [batchDone, completed, completed] })
    expect(created.status, created.text).toBe(201)
    expectDocumentedShape(service.routes, "createWebhookEndpoint", created)
    const secret = created.body.data.webhook_secret as string
    expect(secret).toMatch(/^whsec_[0-9a-z]{32}$/)
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^we_/),
      uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      url: "https://example.com/hooks",
      active: true,
      created_at: isoTimestamp,
      updated_at: isoTimestamp,
      subscribed_events_count: 2,
      // Catalogue order, each event once.
      webhook_subscribed_events: [
        {
          id: expect.stringMatching(/^wes_/),
          event_name: completed,
          display_name: "Payment completed",
          event_category: "PaymentEvents",
          event_action: "completed",
        },
        {
          id: expect.stringMatching(/^wes_/),
          event_name: batchDone,
          display_name: "Payment batch completed",
          event_category: "PaymentBatchEvents",
          event_action: "completed",
        },
      ],
      // Its circuit is closed and it was never disabled: no failed attempt yet.
      consecutive_failures: 0,
      circuit_open_until: null,
      failing_since: null,
      disabled_reason: null,
      disabled_at: null,
      webhook_secret: secret,
    })
    const id = created.body.data.id as string
    const { webhook_secret: _shownOnce, ...endpoint } = created.body.data
    for (const path of [`${c.base}/${id}`, `/api/v1/webhook_endpoints/${id}`]) {
      const got = await c.call("GET", path)
      expect(got.status, got.text).toBe(200)
      expect(got.body).toEqual({ data: endpoint })
      expect(got.text).not.toContain(secret)
    }
    const listed = await c.call("GET", c.base)
    expect(listed.text).not.toContain(secret)
    // The stored row: neither the secret nor anything that contains it in clear.
    const row = await storage.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("id", "=", id as never)
      .executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain(secret.slice("whsec_".length))
    expect(row.secret).toMatch(/^aes-256-gcm:[0-9a-f]{8}:[\w-]+:[\w-]+$/)
    // Two endpoints never share a secret.
    const other = await c.create({ url: "https://example.com/other", event_names: [completed], active: false })
    expect(other.status).toBe(201)
    expect(other.body.data.active).toBe(false)
    expect(other.body.data.webhook_secret).not.toBe(secret)
  })

  it("replays a create with its Idempotency-Key, secret included, while the stored record holds it sealed only", async () => {
    const c = await client("webhooks-idempotent")
    const send = () =>
      service.request("POST", c.base, {
        token: c.token,
        headers: { "Idempotency-Key": "hooks-1" },
        body: { url: "https://example.com/hooks", event_names: [completed] },
      })
    const first = await send()
    expect(first.status, first.text).toBe(201)
    const again = await send()
    expect(again.status).toBe(201)
    expect(again.headers.get("Idempotent-Replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    expect((await c.call("GET", c.base)).body.meta.total_count).toBe(1)
    const secret = first.body.data.webhook_secret as string
    const records = await storage.db
      .selectFrom("idempotency_records")
      .selectAll()
      .where("key", "=", "hooks-1")
      .execute()
    expect(records).toHaveLength(1)
    expect(JSON.stringify(records)).not.toContain(secret.slice("whsec_".length))
    expect(JSON.parse(records[0]!.response_body!).data.webhook_secret).toEqual({
      $sealed: expect.stringMatching(/^aes-256-gcm:/),
    })
  })

  it("refuses bad input with a 422 validation_error naming each field, never a 500", async () => {
    const c = await client("webhooks-invalid")
    const refuse = async (body: unknown, details: ReadonlyArray<{ field: string; message: string }>) =>
      expectWebhookError(await c.create(body), 422, "validation_error", details)
    await refuse({ url: "http://example.com/hooks", event_names: [completed] }, [
      { field: "url", message: "URL must use HTTPS" },
    ])
    await refuse({ url: "ftp://example.com/hooks", event_names: [completed] }, [
      { field: "url", message: "URL must use HTTPS" },
    ])
    await refuse({ url: "not a url", event_names: [completed] }, [
      { field: "url", message: "URL is not a valid absolute URL" },
    ])
    await refuse({ url: "https://user:pw@example.com/", event_names: [completed] }, [
      { field: "url", message: "URL must not contain a user name or password" },
    ])
    await refuse({ url: `https://example.com/${"a".repeat(2048)}`, event_names: [completed] }, [
      { field: "url", message: "URL must be at most 2048 characters" },
    ])
    await refuse({ event_names: [completed] }, [{ field: "url", message: "URL is required" }])
    await refuse({ url: "https://example.com" }, [{ field: "event_names", message: "Event names are required" }])
    await refuse({ url: "https://example.com", event_names: [] }, [
      { field: "event_names", message: "must name at least one event" },
    ])
    await refuse({ url: "https://example.com", event_names: ["PaymentEvents::Nope", completed, "entity.Created"] }, [
      { field: "event_names", message: "contains unknown events: PaymentEvents::Nope, entity.Created" },
    ])
    await refuse({ url: 42, event_names: "entity.created", active: "yes" }, [
      { field: "url", message: "must be a string" },
      { field: "active", message: "must be true or false" },
      { field: "event_names", message: "must be an array of event names" },
    ])
    // Every failing field at once: the URL's rule beside the schema's.
    await refuse({ url: "http://example.com", event_names: ["PaymentEvents::Completed"], active: 1 }, [
      { field: "url", message: "URL must use HTTPS" },
      { field: "active", message: "must be true or false" },
      { field: "event_names", message: "contains unknown events: PaymentEvents::Completed" },
    ])
    await refuse({ url: "https://example.com", event_names: [completed], company_id: "cmp_other" }, [
      { field: "company_id", message: "must be the company of the path" },
    ])
    // The sample body's company_id, when it is the path's, is accepted.
    expect((await c.create({ url: "https://example.com", event_names: [completed], company_id: c.cid })).status).toBe(
      201,
    )
    // Malformed JSON is the binding's general 400, before any route rule.
    const raw = await service.request("POST", c.base, {
      token: c.token,
      raw: "{",
      headers: { "Content-Type": "application/json" },
    })
    expect({ status: raw.status, body: raw.body }).toEqual({
      status: 400,
      body: { errors: [{ field: "body", message: "Malformed JSON" }] },
    })
  })

  it("refuses the NUL character in the webhook shape on create and update, by both paths, keyed or not", async () => {
    const c = await client("webhooks-nul")
    const nul = "must not contain the NUL character (U+0000)"
    expectWebhookError(
      await c.create({ url: "https://example.com/\u0000", event_names: [completed] }),
      422,
      "validation_error",
      [{ field: "url", message: nul }],
    )
    expectWebhookError(
      await service.request("POST", c.base, {
        token: c.token,
        body: { url: "https://example.com/hooks", event_names: [completed, "x\u0000"] },
        headers: { "Idempotency-Key": "nul-create" },
      }),
      422,
      "validation_error",
      [{ field: "event_names.1", message: nul }],
    )
    expectWebhookError(await c.create({ "u\u0000rl": "https://example.com/hooks" }), 422, "validation_error", [
      { field: "body", message: nul },
    ])
    const created = await c.create({ url: "https://example.com/hooks", event_names: [completed] })
    expect(created.status).toBe(201)
    const id = created.body.data.id as string
    for (const path of [`${c.base}/${id}`, `/api/v1/webhook_endpoints/${id}`]) {
      expectWebhookError(await c.call("PATCH", path, { url: "https://example.com/\u0000" }), 422, "validation_error", [
        { field: "url", message: nul },
      ])
    }
    // Nothing was written: the endpoint is as created.
    const shown = await c.call("GET", `${c.base}/${id}`)
    expect(shown.body.data.url).toBe("https://example.com/hooks")
  })

  it("allows http to localhost and 127.0.0.1 in sandbox mode only", async () => {
    const sandbox = await client("webhooks-local")
    const live = await client("webhooks-local-live", production)
    for (const url of ["http://localhost:4000/hooks", "http://127.0.0.1/hooks"]) {
      expect((await sandbox.create({ url, event_names: [completed] })).status).toBe(201)
      expectWebhookError(await live.create({ url, event_names: [completed] }), 422, "validation_error", [
        { field: "url", message: "URL must use HTTPS" },
      ])
    }
    // Other hosts over http stay refused, in sandbox mode too.
    for (const url of ["http://localhost.example.com/", "http://10.0.0.1/", "http://[::1]/"]) {
      expectWebhookError(await sandbox.create({ url, event_names: [completed] }), 422, "validation_error", [
        { field: "url", message: "URL must use HTTPS" },
      ])
    }
  })

  it("refuses a URL whose host resolves to a loopback, private, link-local or metadata address outside sandbox mode, at create and update", async () => {
    const live = await client("webhooks-private-live", production)
    const refused = [
      "https://127.0.0.1/hooks",
      "https://localhost/hooks",
      "https://10.1.2.3/hooks",
      "https://192.168.0.7/hooks",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hooks",
      "https://[::ffff:127.0.0.1]/hooks",
    ]
    for (const url of refused) {
      expectWebhookError(await live.create({ url, event_names: [completed] }), 422, "validation_error", [
        { field: "url", message: "URL must not resolve to a loopback, private, link-local or metadata address" },
      ])
    }
    // A public address is taken.
    const made = await live.create({ url: "https://93.184.216.34/hooks", event_names: [completed] })
    expect(made.status, made.text).toBe(201)
    const changed = await live.call("PATCH", `/api/v1/webhook_endpoints/${made.body.data.id}`, {
      url: "https://10.0.0.1/hooks",
    })
    expect(changed.status).toBe(422)
    // Sandbox mode allows loopback, and nothing else that is private.
    const sandbox = await client("webhooks-private-sandbox")
    expect((await sandbox.create({ url: "https://127.0.0.1/hooks", event_names: [completed] })).status).toBe(201)
    expect((await sandbox.create({ url: "https://10.1.2.3/hooks", event_names: [completed] })).status).toBe(422)
  })

  it("refuses a URL whose host does not resolve outside sandbox mode, at create and update; sandbox mode takes it", async () => {
    // RFC 6761: no name under .invalid ever resolves, so this needs no network.
    const unresolvable = "https://hooks.example.invalid/in"
    const message = "URL host could not be resolved (no DNS address found for it)"
    const live = await client("webhooks-unresolvable-live", production)
    expectWebhookError(await live.create({ url: unresolvable, event_names: [completed] }), 422, "validation_error", [
      { field: "url", message },
    ])
    const made = await live.create({ url: "https://93.184.216.34/hooks", event_names: [completed] })
    expect(made.status, made.text).toBe(201)
    const changed = await live.call("PATCH", `/api/v1/webhook_endpoints/${made.body.data.id}`, { url: unresolvable })
    expectWebhookError(changed, 422, "validation_error", [{ field: "url", message }])
    expect((await live.call("GET", `/api/v1/webhook_endpoints/${made.body.data.id}`)).body.data.url).toBe(
      "https://93.184.216.34/hooks",
    )
    const sandbox = await client("webhooks-unresolvable-sandbox")
    expect((await sandbox.create({ url: unresolvable, event_names: [completed] })).status).toBe(201)
  })

  it("updates, toggles and deletes by either path; events kept keep their subscription ids", async () => {
    const c = await client("webhooks-update")
    const created = await c.create({ url: "https://example.com/a", event_names: [completed, "entity.created"] })
    const id = created.body.data.id as string
    const [completedSub] = created.body.data.webhook_subscribed_events
    service.clock.advance(1000)
    const updated = await c.call("PATCH", `/api/v1/webhook_endpoints/${id}`, {
      url: "https://example.com/b",
      event_names: ["entity.deleted", completed],
    })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body.data).toMatchObject({ id, uuid: created.body.data.uuid, url: "https://example.com/b" })
    expect(updated.body.data.updated_at > created.body.data.updated_at).toBe(true)
    expect(updated.body.data.webhook_subscribed_events.map((e: { event_name: string }) => e.event_name)).toEqual([
      completed,
      "entity.deleted",
    ])
    expect(updated.body.data.webhook_subscribed_events[0].id).toBe(completedSub.id)
    expect(updated.body.data).not.toHaveProperty("webhook_secret")
    expectWebhookError(
      await c.call("PATCH", `${c.base}/${id}`, { url: "http://example.com" }),
      422,
      "validation_error",
      [{ field: "url", message: "URL must use HTTPS" }],
    )
    expectWebhookError(
      await c.call("PATCH", `${c.base}/${id}`, { url: "https://a:b@example.com", event_names: [] }),
      422,
      "validation_error",
      [
        { field: "url", message: "URL must not contain a user name or password" },
        { field: "event_names", message: "must name at least one event" },
      ],
    )
    expectWebhookError(await c.call("PATCH", `${c.base}/${id}`, { event_names: ["x"] }), 422, "validation_error", [
      { field: "event_names", message: "contains unknown events: x" },
    ])

    const off = await c.call("PATCH", `${c.base}/${id}/toggle`)
    expect(off.status, off.text).toBe(200)
    expect(off.body.data).toMatchObject({ id, active: false })
    const on = await c.call("PATCH", `/api/v1/webhook_endpoints/${id}/toggle`)
    expect(on.body.data).toMatchObject({ id, active: true })
    expect((await c.call("PATCH", `${c.base}/${id}`, { active: false })).body.data.active).toBe(false)

    const deleted = await c.call("DELETE", `/api/v1/webhook_endpoints/${id}`)
    expect(deleted.status, deleted.text).toBe(204)
    expect(deleted.text).toBe("")
    const gone = [{ field: "id", message: "Webhook endpoint not found" }]
    for (const [method, path] of [
      ["GET", `${c.base}/${id}`],
      ["GET", `/api/v1/webhook_endpoints/${id}`],
      ["PATCH", `${c.base}/${id}/toggle`],
      ["DELETE", `${c.base}/${id}`],
    ] as const) {
      expectWebhookError(await c.call(method, path), 404, "not_found", gone)
    }
    expectWebhookError(await c.call("PATCH", `${c.base}/${id}`, { active: true }), 404, "not_found", gone)
  })

  it("answers another workspace's or another company's endpoint as not_found, and 401 in the general shape", async () => {
    const owner = await client("webhooks-owner")
    const stranger = await client("webhooks-stranger")
    const id = (await owner.create({ url: "https://example.com", event_names: [completed] })).body.data.id as string
    const gone = [{ field: "id", message: "Webhook endpoint not found" }]
    expectWebhookError(await stranger.call("GET", `/api/v1/webhook_endpoints/${id}`), 404, "not_found", gone)
    expectWebhookError(await stranger.call("GET", `${stranger.base}/${id}`), 404, "not_found", gone)
    expectWebhookError(await stranger.call("DELETE", `/api/v1/webhook_endpoints/${id}`), 404, "not_found", gone)
    expectWebhookError(await stranger.call("PATCH", `/api/v1/webhook_endpoints/${id}/toggle`), 404, "not_found", gone)
    // The owner's company seen from another workspace: the company is not found, in this shape.
    expectWebhookError(await stranger.call("GET", `${owner.base}/${id}`), 404, "not_found", [
      { field: "company_id", message: "Company not found or not accessible in this workspace" },
    ])
    // A second company of the owner's workspace does not reach it under its own path.
    const second = await service.request("POST", "/api/v1/companies", { token: owner.token, body: acme })
    const secondBase = `/api/v1/companies/${second.body.data.id}/webhook_endpoints`
    expectWebhookError(await owner.call("GET", `${secondBase}/${id}`), 404, "not_found", gone)
    expect((await owner.call("GET", `/api/v1/webhook_endpoints/${id}`)).status).toBe(200)
    // Still there after all of it.
    expect((await owner.call("GET", `${owner.base}/${id}`)).body.data.active).toBe(true)

    for (const [method, path] of [
      ["GET", owner.base],
      ["GET", `/api/v1/webhook_endpoints/${id}`],
      ["GET", "/api/v1/webhook_events"],
    ] as const) {
      const response = await service.request(method, path)
      expect({ status: response.status, body: response.body }).toEqual({
        status: 401,
        body: { errors: [{ field: "token", message: "Missing or invalid token" }] },
      })
    }
    // A read-only key may look but not change: the general 403.
    const reader = await service.signIn("webhooks-owner", "read")
    expect((await service.request("GET", `/api/v1/webhook_endpoints/${id}`, { token: reader })).status).toBe(200)
    const refused = await service.request("DELETE", `/api/v1/webhook_endpoints/${id}`, { token: reader })
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 403,
      body: { errors: [{ field: "base", message: "API key does not have permission for this action" }] },
    })
  })

  it("lists the company's endpoints, 25 a page, with the spec's meta and the active filter", async () => {
    const c = await client("webhooks-list")
    const ids: Array<string> = []
    for (let i = 0; i < 27; i += 1) {
      const created = await c.create({ url: `https://example.com/${i}`, event_names: [completed], active: i % 3 !== 0 })
      ids.push(created.body.data.id)
    }
    const first = await c.call("GET", c.base)
    expect(first.status, first.text).toBe(200)
    expectDocumentedShape(service.routes, "listWebhookEndpoints", first)
    expect(first.body.meta).toEqual({ current_page: 1, total_pages: 2, total_count: 27, per_page: 25 })
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 25))
    const second = await c.call("GET", `${c.base}?page=2`)
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(25))
    const inactive = await c.call("GET", `${c.base}?active=false`)
    expect(inactive.body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: 9, per_page: 25 })
    expect(inactive.body.data.map((e: { id: string }) => e.id)).toEqual(ids.filter((_, i) => i % 3 === 0))
    const active = await c.call("GET", `${c.base}?active=true&per_page=100`)
    expect(active.body.meta.total_count).toBe(18)
    expect(active.body.data.every((e: { active: boolean }) => e.active)).toBe(true)
    expectWebhookError(await c.call("GET", `${c.base}?active=yes`), 422, "validation_error", [
      { field: "active", message: "must be true or false" },
    ])
    expectWebhookError(await c.call("GET", `${c.base}?per_page=0`), 422, "validation_error", [
      { field: "per_page", message: expect.any(String) },
    ])
    // Another company's list is its own, and a deleted endpoint leaves it.
    const other = await client("webhooks-list-other")
    expect((await other.call("GET", other.base)).body.meta.total_count).toBe(0)
    expect((await c.call("DELETE", `${c.base}/${ids[1]}`)).status).toBe(204)
    expect((await c.call("GET", c.base)).body.meta.total_count).toBe(26)
  })

  it("serves the event catalogue, grouped by category, every event of the spec and the endpoints' own", async () => {
    const c = await client("webhooks-catalogue")
    const response = await c.call("GET", "/api/v1/webhook_events")
    expect(response.status, response.text).toBe(200)
    expectDocumentedShape(service.routes, "listWebhookEvents", response)
    const categories = response.body.data as Array<{
      category_name: string
      event_count: number
      events: Array<{ event_name: string; display_name: string; action: string; description: string }>
    }>
    expect(categories.map((g) => [g.category_name, g.event_count])).toEqual([
      ["PaymentEvents", 4],
      ["BankAccountEvents", 3],
      ["PaymentProfileEvents", 2],
      ["PaymentBatchEvents", 1],
      ["EntityEvents", 3],
      ["WebhookEndpointEvents", 2],
    ])
    expect(categories.flatMap((g) => g.events.map((e) => e.event_name))).toEqual([
      "PaymentEvents::CompletedEvent",
      "PaymentEvents::FailedEvent",
      "PaymentEvents::CancelledEvent",
      "PaymentEvents::DebitInitiatedEvent",
      "BankAccountEvents::CreatedEvent",
      "BankAccountEvents::UpdatedEvent",
      "BankAccountEvents::DeletedEvent",
      "PaymentProfileEvents::CreatedEvent",
      "PaymentProfileEvents::FailedEvent",
      "PaymentBatchCompletedEvent",
      "entity.created",
      "entity.updated",
      "entity.deleted",
      "WebhookEndpointEvents::DisabledEvent",
      "WebhookEndpointEvents::TestEvent",
    ])
    expect(categories[0]).toMatchObject({ display_name: "Payment events", description: expect.any(String) })
    expect(categories[4]!.events[2]).toEqual({
      event_name: "entity.deleted",
      display_name: "Entity deleted",
      action: "deleted",
      description: "An entity is deleted",
    })
    // Every name listed can be subscribed to, the batch digest included.
    const all = await c.create({ url: "https://example.com", event_names: [...webhookEventNames] })
    expect(all.status, all.text).toBe(201)
    expect(all.body.data.subscribed_events_count).toBe(15)
  })

  it("writes entity.created, entity.updated and entity.deleted to the outbox with the entity", async () => {
    const c = await client("webhooks-entity-events")
    const entities = `/api/v1/companies/${c.cid}/entities`
    const created = await c.call("POST", entities, { name: "Acme US", country_alpha2: "US" })
    expect(created.status, created.text).toBe(201)
    const eid = created.body.data.id as string
    service.clock.advance(1000)
    const updated = await c.call("PATCH", `${entities}/${eid}`, { name: "Acme USA" })
    expect(updated.status, updated.text).toBe(200)
    service.clock.advance(1000)
    expect((await c.call("DELETE", `${entities}/${eid}`)).status).toBe(200)
    // A refused change writes nothing.
    expect((await c.call("PATCH", `${entities}/${eid}`, { name: "Gone" })).status).toBe(404)
    const rows = await storage.db
      .selectFrom("events")
      .select(["event", "resource_id", "payload"])
      .where("company_id", "=", c.cid as never)
      .orderBy("id")
      .execute()
    expect(rows.map((r) => [r.event, r.resource_id])).toEqual([
      ["entity.created", eid],
      ["entity.updated", eid],
      ["entity.deleted", eid],
    ])
    const payloads = rows.map((r) => JSON.parse(r.payload))
    expect(payloads[0]).toEqual({
      event: "entity.created",
      timestamp: created.body.data.created_at,
      company_id: c.cid,
      resource_id: eid,
      data: created.body.data,
    })
    expect(payloads[1]).toEqual({
      event: "entity.updated",
      timestamp: updated.body.data.updated_at,
      company_id: c.cid,
      resource_id: eid,
      data: updated.body.data,
    })
    expect(payloads[2]).toMatchObject({
      event: "entity.deleted",
      resource_id: eid,
      data: { id: eid, name: "Acme USA" },
    })
    expect(payloads[2].timestamp > payloads[1].timestamp).toBe(true)
  })
})
