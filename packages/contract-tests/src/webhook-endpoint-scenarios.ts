import type { Awaitable } from "@payments-engine/core"
import {
  brandId,
  type CompanyId,
  type EventId,
  type EventRecord,
  type Repositories,
  type WebhookDeliveryId,
  type WebhookDeliveryRecord,
  type WebhookEndpointId,
  type WebhookEndpointRecord,
  type WebhookEndpointRepository,
  type WorkspaceId,
} from "@payments-engine/core"
import { expect } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { counterIds } from "./test-ports.ts"

/** One port call in a transaction of its own. */
const onPort =
  (harness: Harness) =>
  <T>(call: (endpoints: WebhookEndpointRepository) => Awaitable<T>): Promise<T> =>
    harness.storage.transaction((tx) => call(tx.webhookEndpoints))

/** A stored endpoint with every column set; `fields` overrides. */
const endpointRow = (
  id: WebhookEndpointId,
  workspaceId: WorkspaceId,
  companyId: CompanyId,
  at: string,
  fields: Partial<WebhookEndpointRecord> = {},
): WebhookEndpointRecord => ({
  id,
  uuid: `00000000-0000-4000-8000-${id.slice(-12).padStart(12, "0")}`,
  workspace_id: workspaceId,
  company_id: companyId,
  url: `https://example.com/hooks/${id}`,
  active: true,
  subscriptions: '[{"id":"wes_1","event_name":"PaymentEvents::CompletedEvent"}]',
  secret: "aes-256-gcm:0a1b2c3d:AAAA:BBBB",
  previous_secret: null,
  previous_secret_expires_at: null,
  consecutive_failures: 0,
  circuit_open_until: null,
  failing_since: null,
  disabled_reason: null,
  disabled_at: null,
  created_at: at,
  updated_at: at,
  deleted_at: null,
  ...fields,
})

/**
 * A company's endpoints as `listActive` must tell them apart: three live and active (their ids in
 * an order where bytes and a language's collation differ), one inactive, one deleted, and another
 * company's. `active` is what the company's list must give, in id order.
 */
const companyWithListedEndpoints = async (harness: Harness) => {
  const port = onPort(harness)
  const ids = counterIds()
  const ws = ids.next("ws")
  const [company, other] = [ids.next("cmp"), ids.next("cmp")]
  const at = "2030-03-06T00:00:00.000Z"
  const base = ids.next("we")
  const row = (suffix: string, owner: CompanyId, fields: Partial<WebhookEndpointRecord> = {}) =>
    endpointRow(brandId("we", `${base}${suffix}`), ws, owner, at, fields)
  // Ids whose byte order differs from a language's order: "B" < "_" < "a".
  const [a, b, c] = [row("_a", company), row("_B", company), row("__", company)]
  const off = row("_c", company, { active: false })
  const gone = row("_d", company, { deleted_at: at })
  const elsewhere = row("_e", other)
  await port(async (endpoints) => {
    for (const endpoint of [a, b, c, off, gone, elsewhere]) await endpoints.insert(endpoint)
  })
  return { port, ids, ws, company, at, base, active: [b, c, a] }
}

/**
 * A live endpoint and a deleted one of workspace `ws`, stored, and a second workspace `wsB`: what
 * the scenarios of writes "on live endpoints of the workspace" start from.
 */
const liveAndDeletedEndpoints = async (harness: Harness) => {
  const port = onPort(harness)
  const ids = counterIds()
  const [ws, wsB] = [ids.next("ws"), ids.next("ws")]
  const company = ids.next("cmp")
  const at = "2030-03-08T00:00:00.000Z"
  const endpoint = endpointRow(ids.next("we"), ws, company, at)
  const gone = endpointRow(ids.next("we"), ws, company, at, { deleted_at: at })
  await port(async (endpoints) => {
    for (const row of [endpoint, gone]) await endpoints.insert(row)
  })
  return { port, ws, wsB, endpoint, gone }
}

/** A stored delivery of `eventId` to `endpointId`; `fields` overrides. */
const deliveryRow = (
  id: WebhookDeliveryId,
  workspaceId: WorkspaceId,
  endpointId: WebhookEndpointId,
  eventId: EventId,
  at: string,
  fields: Partial<WebhookDeliveryRecord> = {},
): WebhookDeliveryRecord => ({
  id,
  workspace_id: workspaceId,
  company_id: brandId("cmp", "cmp_deliveries"),
  endpoint_id: endpointId,
  event_id: eventId,
  event_name: "entity.updated",
  payload: '{"event":"entity.updated","name":"«Café» \\"quoted\\""}',
  status: "pending",
  machine_version: 1,
  attempt_count: 0,
  last_status_code: null,
  next_attempt_at: at,
  attempts: "[]",
  created_at: at,
  updated_at: at,
  lane_id: null,
  ...fields,
})

/** Webhook endpoints: found only in their workspace, listed by company and `active`, changed only while live. */
export const webhookEndpointScenarios: ScenarioGroup = {
  title: "webhook endpoints",
  scenarios: [
    {
      id: "webhook-endpoints.insert-and-find",
      title:
        "every column round-trips (active both ways); find is scoped by workspace and sees no deleted endpoint; the engine stores no readable secret",
      run: async (harness) => {
        const port = onPort(harness)
        const ids = counterIds()
        const [wsA, wsB] = [ids.next("ws"), ids.next("ws")]
        const company = ids.next("cmp")
        const at = "2030-03-04T05:06:07.008Z"
        const on = endpointRow(ids.next("we"), wsA, company, at, {
          url: 'https://example.com/hooks?x=«1»&y="2"',
          subscriptions: '[{"id":"wes_2","event_name":"entity.created"},{"id":"wes_3","event_name":"entity.deleted"}]',
          updated_at: "2030-03-04T05:06:07.999Z",
        })
        const off = endpointRow(ids.next("we"), wsA, company, at, {
          active: false,
          consecutive_failures: 7,
          circuit_open_until: "2030-03-04T06:00:00.000Z",
          failing_since: "2030-02-27T05:06:07.008Z",
          disabled_reason: "deliveries_failing",
          disabled_at: "2030-03-04T05:06:07.008Z",
        })
        const gone = endpointRow(ids.next("we"), wsA, company, at, { deleted_at: "2030-03-05T00:00:00.001Z" })
        await port(async (endpoints) => {
          for (const row of [on, off, gone]) await endpoints.insert(row)
        })
        const read = await port(async (endpoints) => ({
          on: await endpoints.find(wsA, on.id),
          off: await endpoints.find(wsA, off.id),
          gone: await endpoints.find(wsA, gone.id),
          fromB: await endpoints.find(wsB, on.id),
          unknown: await endpoints.find(wsA, brandId("we", "we_unknown")),
        }))
        expect(read).toEqual({ on, off, gone: undefined, fromB: undefined, unknown: undefined })
        expect(typeof read.off?.active).toBe("boolean")

        // Through the engine: the secret is answered once and stored only sealed.
        const { engine } = harness
        const actor = await harness.workspace()
        const owner = await engine.companies.create(actor, { name: "Hooks", country: "US", default_currency: "USD" })
        const created = await engine.webhookEndpoints.create(actor, owner.id, {
          url: "https://example.com/hooks",
          event_names: ["PaymentBatchCompletedEvent"],
        })
        const stored = await port((endpoints) => endpoints.find(actor.workspaceId, created.id))
        expect(stored).toMatchObject({ id: created.id, company_id: owner.id, url: created.url, active: true })
        expect(JSON.stringify(stored)).not.toContain(created.webhook_secret.slice("whsec_".length))
        const { webhook_secret: _once, ...endpoint } = created
        expect(await engine.webhookEndpoints.get(actor, null, created.id)).toEqual(endpoint)
      },
    },
    {
      id: "webhook-endpoints.list",
      title:
        "list holds the company's live endpoints in id order, filtered by active, cut to the window, with the count of all that match",
      run: async (harness) => {
        const port = onPort(harness)
        const ids = counterIds()
        const ws = ids.next("ws")
        const [a, b] = [ids.next("cmp"), ids.next("cmp")]
        const at = "2030-03-04T05:06:07.008Z"
        const rows = [0, 1, 2, 3, 4, 5, 6].map((i) =>
          endpointRow(ids.next("we"), ws, i === 6 ? b : a, at, {
            active: i % 2 === 0,
            deleted_at: i === 4 ? at : null,
          }),
        )
        // Inserted out of id order: lists are in id order whatever the insertion order.
        await port(async (endpoints) => {
          for (const row of [...rows].reverse()) await endpoints.insert(row)
        })
        const list = (companyId: CompanyId, filter: { active?: boolean }, offset = 0, limit = 10) =>
          port((endpoints) => endpoints.list(companyId, filter, { offset, limit }))
        const live = rows.filter((r) => r.company_id === a && r.deleted_at === null)
        expect(await list(a, {})).toEqual({ rows: live, total: 5 })
        expect(await list(a, { active: true })).toEqual({ rows: live.filter((r) => r.active), total: 2 })
        expect(await list(a, { active: false })).toEqual({ rows: live.filter((r) => !r.active), total: 3 })
        expect(await list(a, {}, 1, 2)).toEqual({ rows: live.slice(1, 3), total: 5 })
        expect(await list(a, { active: false }, 2, 5)).toEqual({ rows: [live.filter((r) => !r.active)[2]], total: 3 })
        expect(await list(a, {}, 10, 5)).toEqual({ rows: [], total: 5 })
        expect(await list(b, {})).toEqual({ rows: [rows[6]], total: 1 })
        expect(await list(ids.next("cmp"), {})).toEqual({ rows: [], total: 0 })
      },
    },
    {
      id: "webhook-endpoints.update-toggle-delete",
      title:
        "update writes only the fields given, toggle flips active (two toggles leave it as it was), delete hides the endpoint once; none reaches another workspace's or a deleted endpoint",
      run: async (harness) => {
        const port = onPort(harness)
        const ids = counterIds()
        const [ws, other] = [ids.next("ws"), ids.next("ws")]
        const company = ids.next("cmp")
        const at = "2030-03-04T05:06:07.008Z"
        const row = endpointRow(ids.next("we"), ws, company, at)
        await port((endpoints) => endpoints.insert(row))
        const t1 = "2030-03-04T05:06:08.001Z"
        const renamed = await port((endpoints) =>
          endpoints.update(ws, row.id, { url: "https://example.com/renamed", updated_at: t1 }),
        )
        const afterUpdate = { ...row, url: "https://example.com/renamed", updated_at: t1 }
        expect(renamed).toEqual(afterUpdate)
        const t2 = "2030-03-04T05:06:09.002Z"
        const subscriptions = '[{"id":"wes_9","event_name":"entity.updated"}]'
        expect(
          await port((endpoints) => endpoints.update(ws, row.id, { active: false, subscriptions, updated_at: t2 })),
        ).toEqual({ ...afterUpdate, active: false, subscriptions, updated_at: t2 })
        // Re-activating writes the engine's reason away and closes the circuit, in one update.
        const disabled = {
          active: false,
          disabled_reason: "deliveries_failing" as const,
          disabled_at: t2,
          consecutive_failures: 9,
          circuit_open_until: t2,
          failing_since: at,
          updated_at: t2,
        }
        expect(await port((endpoints) => endpoints.update(ws, row.id, disabled))).toMatchObject(disabled)
        const cleared = {
          active: false,
          disabled_reason: null,
          disabled_at: null,
          consecutive_failures: 0,
          circuit_open_until: null,
          failing_since: null,
          updated_at: t2,
        }
        expect(await port((endpoints) => endpoints.update(ws, row.id, cleared))).toEqual({
          ...afterUpdate,
          ...cleared,
          subscriptions,
        })
        expect(
          await port((endpoints) => endpoints.update(other, row.id, { url: "https://evil.test", updated_at: t2 })),
        ).toBe(undefined)
        expect(await port((endpoints) => endpoints.toggle(other, row.id, t2))).toBeUndefined()
        expect((await port((endpoints) => endpoints.find(ws, row.id)))?.url).toBe("https://example.com/renamed")

        const t3 = "2030-03-04T05:06:10.003Z"
        expect(await port((endpoints) => endpoints.toggle(ws, row.id, t3))).toMatchObject({
          active: true,
          updated_at: t3,
        })
        expect(await port((endpoints) => endpoints.toggle(ws, row.id, t3))).toMatchObject({ active: false })
        // Two toggles in transactions of their own, side by side where the storage runs them so.
        await Promise.all([0, 1].map(() => port((endpoints) => endpoints.toggle(ws, row.id, t3))))
        expect((await port((endpoints) => endpoints.find(ws, row.id)))?.active).toBe(false)

        const t4 = "2030-03-04T05:06:11.004Z"
        expect(await port((endpoints) => endpoints.delete(other, row.id, t4))).toBe(false)
        expect(await port((endpoints) => endpoints.find(ws, row.id))).toBeDefined()
        expect(await port((endpoints) => endpoints.delete(ws, row.id, t4))).toBe(true)
        expect(await port((endpoints) => endpoints.delete(ws, row.id, t4))).toBe(false)
        expect(await port((endpoints) => endpoints.find(ws, row.id))).toBeUndefined()
        expect(await port((endpoints) => endpoints.toggle(ws, row.id, t4))).toBeUndefined()
        expect(
          await port((endpoints) => endpoints.update(ws, row.id, { active: true, updated_at: t4 })),
        ).toBeUndefined()
        expect(await port((endpoints) => endpoints.list(company, {}, { offset: 0, limit: 10 }))).toEqual({
          rows: [],
          total: 0,
        })
      },
    },
    {
      id: "webhook-endpoints.list-active",
      title: "listActive gives a company's live, active endpoints in id order, no other company's",
      run: async (harness) => {
        const { port, company, active } = await companyWithListedEndpoints(harness)
        expect(await port((endpoints) => endpoints.listActive(company))).toEqual(active)
        expect(await port((endpoints) => endpoints.listActive(brandId("cmp", "cmp_none")))).toEqual([])
      },
    },
    {
      id: "events.append-listing-endpoints",
      title:
        "appendListingEndpoints appends the event and gives its company's live, active endpoints in id order, no other company's; a rollback leaves no event",
      run: async (harness) => {
        const { ids, ws, company, at, base, active } = await companyWithListedEndpoints(harness)
        const bare = ids.next("cmp")
        const event = (id: string, companyId: CompanyId): EventRecord => ({
          id: brandId("evt", id),
          workspace_id: ws,
          company_id: companyId,
          event: "PaymentEvents::CompletedEvent",
          resource_id: "pay_1",
          payload: '{"amount":"10.10"}',
          created_at: at,
        })
        const first = event(`${base}_1`, company)
        const appended = (row: EventRecord) =>
          harness.storage.transaction((tx) => tx.events.appendListingEndpoints(row))
        expect(await appended(first)).toEqual(active)
        expect(await harness.reader.eventsOfCompany(company)).toEqual([first])
        const lone = event(`${base}_2`, bare)
        expect(await appended(lone)).toEqual([])
        expect(await harness.reader.eventsOfCompany(bare)).toEqual([lone])

        const reason = new Error("rolled back on purpose")
        await expect(
          harness.storage.transaction(async (tx) => {
            await tx.events.appendListingEndpoints(event(`${base}_3`, company))
            throw reason
          }),
        ).rejects.toBe(reason)
        expect(await harness.reader.eventsOfCompany(company)).toEqual([first])
      },
    },
    {
      id: "webhook-endpoints.replace-secret",
      title:
        "replaceSecret writes the new secret and keeps the previous one with its expiry, only while the secret is still the one read, on live endpoints of the workspace",
      run: async (harness) => {
        const { port, ws, wsB, endpoint, gone } = await liveAndDeletedEndpoints(harness)
        const change = (secret: string) => ({
          secret,
          previous_secret: endpoint.secret,
          previous_secret_expires_at: "2030-03-09T00:00:00.000Z",
          updated_at: "2030-03-08T00:00:01.000Z",
        })
        const replace = (workspace: WorkspaceId, id: WebhookEndpointId, from: string, secret: string) =>
          port((endpoints) => endpoints.replaceSecret(workspace, id, from, change(secret)))
        expect(await replace(wsB, endpoint.id, endpoint.secret, "sealed-b")).toBeUndefined()
        expect(await replace(ws, gone.id, gone.secret, "sealed-gone")).toBeUndefined()
        expect(await replace(ws, endpoint.id, "not-its-secret", "sealed-x")).toBeUndefined()
        expect(await port((endpoints) => endpoints.find(ws, endpoint.id))).toEqual(endpoint)
        // Two rotations that read the same secret: one wins.
        const racing = await Promise.all(
          ["sealed-1", "sealed-2"].map((secret) => replace(ws, endpoint.id, endpoint.secret, secret)),
        )
        const won = racing.filter((row) => row !== undefined)
        expect(won).toHaveLength(1)
        expect(won[0]).toEqual({ ...endpoint, ...change(won[0]!.secret) })
        expect(await port((endpoints) => endpoints.find(ws, endpoint.id))).toEqual(won[0])
      },
    },
    {
      id: "webhook-endpoints.record-circuit",
      title:
        "recordCircuit writes an endpoint's failures in a row and until when its circuit is open, and nothing else, on live endpoints of the workspace; the circuit is read back as written",
      run: async (harness) => {
        const { port, ws, wsB, endpoint, gone } = await liveAndDeletedEndpoints(harness)
        const open = {
          consecutive_failures: 6,
          circuit_open_until: "2030-03-08T00:02:00.000Z",
          failing_since: "2030-03-03T00:00:00.000Z",
        }
        expect(await port((endpoints) => endpoints.recordCircuit(wsB, endpoint.id, open))).toBeUndefined()
        expect(await port((endpoints) => endpoints.recordCircuit(ws, gone.id, open))).toBeUndefined()
        expect(await port((endpoints) => endpoints.find(ws, endpoint.id))).toEqual(endpoint)
        const written = await port((endpoints) => endpoints.recordCircuit(ws, endpoint.id, open))
        expect(written).toEqual({ ...endpoint, ...open })
        expect(await port((endpoints) => endpoints.find(ws, endpoint.id))).toEqual(written)
        const closed = { consecutive_failures: 0, circuit_open_until: null, failing_since: null }
        expect(await port((endpoints) => endpoints.recordCircuit(ws, endpoint.id, closed))).toEqual(endpoint)
        expect(await port((endpoints) => endpoints.find(ws, endpoint.id))).toEqual(endpoint)
      },
    },
    {
      id: "webhook-endpoints.disable",
      title:
        "disable deactivates a live, active endpoint of the workspace with its reason and time, once: not an inactive one, a deleted one or another workspace's; two at once, one",
      run: async (harness) => {
        const { port, ws, wsB, endpoint, gone } = await liveAndDeletedEndpoints(harness)
        const change = {
          disabled_reason: "deliveries_failing" as const,
          disabled_at: "2030-03-13T00:00:00.000Z",
          updated_at: "2030-03-13T00:00:00.000Z",
        }
        const disable = (workspace: WorkspaceId, id: WebhookEndpointId) =>
          port((endpoints) => endpoints.disable(workspace, id, change))
        expect(await disable(wsB, endpoint.id)).toBeUndefined()
        expect(await disable(ws, gone.id)).toBeUndefined()
        expect(await port((endpoints) => endpoints.find(ws, endpoint.id))).toEqual(endpoint)
        const racing = await Promise.all([0, 1].map(() => disable(ws, endpoint.id)))
        const won = racing.filter((row) => row !== undefined)
        expect(won).toEqual([{ ...endpoint, ...change, active: false }])
        expect(await port((endpoints) => endpoints.find(ws, endpoint.id))).toEqual(won[0])
        // Already inactive (turned off by a user, or disabled before): left as it is.
        const off = await port((endpoints) =>
          endpoints.update(ws, endpoint.id, {
            disabled_reason: null,
            disabled_at: null,
            updated_at: change.updated_at,
          }),
        )
        expect(off).toMatchObject({ active: false, disabled_reason: null })
        expect(await disable(ws, endpoint.id)).toBeUndefined()
        expect(await port((endpoints) => endpoints.find(ws, endpoint.id))).toEqual(off)
      },
    },
    {
      id: "webhook-deliveries.find-for-lane",
      title:
        "findForLane gives the delivery with its live endpoint (none once deleted, none of another workspace) and the distinct lanes holding pending deliveries of its workspace: not free ones, not finished ones, not another workspace's",
      run: async (harness) => {
        const ids = counterIds()
        const [ws, wsB] = [ids.next("ws"), ids.next("ws")]
        const company = brandId("cmp", "cmp_deliveries")
        const at = "2030-03-07T00:00:00.000Z"
        const endpoint = endpointRow(ids.next("we"), ws, company, at)
        const gone = endpointRow(ids.next("we"), ws, company, at, { deleted_at: at })
        const foreign = endpointRow(ids.next("we"), wsB, company, at)
        for (const each of [endpoint, gone, foreign]) {
          await harness.storage.transaction((tx) => tx.webhookEndpoints.insert(each))
        }
        const deliveries = <T>(call: (tx: Repositories["webhookDeliveries"]) => Awaitable<T>) =>
          harness.storage.transaction((tx) => call(tx.webhookDeliveries))
        const row = (workspace: WorkspaceId, to: WebhookEndpointId, fields: Partial<WebhookDeliveryRecord> = {}) =>
          deliveryRow(ids.next("whd"), workspace, to, ids.next("evt"), at, fields)
        const find = (id: WebhookDeliveryId) => deliveries((d) => d.findForLane(id))
        const free = row(ws, endpoint.id)
        expect(await deliveries((d) => d.insertIfNew(free))).toBe(true)
        expect(await find(free.id)).toEqual({ delivery: free, endpoint, workspaceLanes: 0 })
        expect(await find(ids.next("whd"))).toBeUndefined()

        const headA = row(ws, endpoint.id)
        const headB = row(ws, gone.id)
        const toForeign = row(ws, foreign.id)
        const ofB = row(wsB, foreign.id, { lane_id: ids.next("whd") })
        const rows = [
          { ...headA, lane_id: headA.id },
          row(ws, endpoint.id, { lane_id: headA.id }),
          { ...headB, lane_id: headB.id },
          toForeign,
          row(ws, endpoint.id, { status: "succeeded", lane_id: ids.next("whd") }),
          ofB,
        ]
        for (const each of rows) expect(await deliveries((d) => d.insertIfNew(each))).toBe(true)
        expect(await find(free.id)).toEqual({ delivery: free, endpoint, workspaceLanes: 2 })
        expect(await find(headB.id)).toEqual({
          delivery: { ...headB, lane_id: headB.id },
          endpoint: undefined,
          workspaceLanes: 2,
        })
        expect((await find(toForeign.id))?.endpoint).toBeUndefined()
        expect(await find(ofB.id)).toEqual({ delivery: ofB, endpoint: foreign, workspaceLanes: 1 })
      },
    },
    {
      id: "webhook-deliveries.lanes",
      title:
        "a lane lists its endpoint's pending deliveries due by now, soonest first, passing over those another lane holds; takes its first and as many due ones as make its size, and those it already holds, only pending ones no other lane holds; two lanes racing for one get it once; many moves are written each only from the status and attempt count it was read with",
      run: async (harness) => {
        const ids = counterIds()
        const ws = ids.next("ws")
        const [endpoint, otherEndpoint] = [ids.next("we"), ids.next("we")]
        const deliveries = <T>(call: (tx: Repositories["webhookDeliveries"]) => Awaitable<T>) =>
          harness.storage.transaction((tx) => call(tx.webhookDeliveries))
        const t = (second: number) => `2030-03-07T00:00:${String(second).padStart(2, "0")}.000Z`
        const due = (second: number, fields: Partial<WebhookDeliveryRecord> = {}) =>
          deliveryRow(ids.next("whd"), ws, endpoint, ids.next("evt"), t(1), { next_attempt_at: t(second), ...fields })
        // Ids in creation order; due times out of it, so the order is by due time.
        const [head, d3, d2, d4] = [due(1), due(3), due(2), due(4)]
        const later = due(30)
        const done = due(1, { status: "succeeded", next_attempt_at: null })
        const elsewhere = deliveryRow(ids.next("whd"), ws, otherEndpoint, ids.next("evt"), t(1))
        const other = ids.next("whd")
        const held = due(1, { lane_id: other })
        for (const row of [head, d3, d2, d4, later, done, elsewhere, held]) {
          expect(await deliveries((d) => d.insertIfNew(row))).toBe(true)
        }
        const listDue = (laneId: WebhookDeliveryId, limit = 10) =>
          deliveries((d) => d.listDue(endpoint, t(10), laneId, limit))
        expect(await listDue(head.id)).toEqual([d2, d3, d4])
        expect(await listDue(head.id, 2)).toEqual([d2, d3])
        expect((await deliveries((d) => d.findForLane(head.id)))?.delivery).toEqual(head)

        const takeLane = (laneId: WebhookDeliveryId, size: number, reach = 10) =>
          deliveries((d) => d.takeLane(laneId, endpoint, t(10), { size, reach }))
        const inLane = (laneId: WebhookDeliveryId, rows: ReadonlyArray<WebhookDeliveryRecord>) =>
          rows.map((row) => ({ ...row, lane_id: laneId }))
        const laneOf = async (row: WebhookDeliveryRecord) => (await deliveries((d) => d.findById(row.id)))?.lane_id
        // Its first, then as many of the due ones as make its size, soonest first: not the finished,
        // not another lane's, not another endpoint's, not the later one.
        expect(await takeLane(head.id, 3)).toEqual(inLane(head.id, [head, d2, d3]))
        expect(await laneOf(d4)).toBeNull()
        expect(await laneOf(held)).toBe(other)
        // Run again after a crash, smaller now: what it holds stays in it, past its size, and only what it holds.
        expect(await takeLane(head.id, 1)).toEqual(inLane(head.id, [head, d2, d3]))
        expect(await laneOf(d4)).toBeNull()
        // Only as far as `reach` into the due ones.
        expect(await takeLane(head.id, 10, 1)).toEqual(inLane(head.id, [head, d2]))
        // No longer due to any other lane.
        expect((await listDue(head.id)).map((row) => row.id)).toEqual([d2.id, d3.id, d4.id])
        expect(await listDue(d4.id)).toEqual([])
        // A first delivery another lane holds, or a finished one, takes nothing.
        expect(await takeLane(held.id, 10)).toEqual([])
        expect(await takeLane(done.id, 10)).toEqual([])
        expect(await laneOf(d4)).toBeNull()

        // Two lanes take the same free delivery at once: one gets it.
        const [x, y] = [due(40), due(40)]
        for (const row of [x, y]) expect(await deliveries((d) => d.insertIfNew(row))).toBe(true)
        const racing = await Promise.all([x, y].map((lane) => takeLane(lane.id, 10)))
        expect(racing.map((rows) => rows.map((row) => row.id))).toEqual(
          (await laneOf(d4)) === x.id ? [[x.id, d4.id], [y.id]] : [[x.id], [y.id, d4.id]],
        )

        const byId = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) => (a.id < b.id ? -1 : 1)
        const change = (attempt_count: number, status: WebhookDeliveryRecord["status"]) => ({
          status,
          attempt_count,
          last_status_code: 200,
          next_attempt_at: null,
          attempts: `[{"number":${attempt_count}}]`,
          updated_at: t(11),
          lane_id: null,
        })
        const moved = await deliveries((d) =>
          d.compareAndSetMany([
            { id: head.id, from: { status: "pending", attempt_count: 0 }, change: change(1, "succeeded") },
            { id: d2.id, from: { status: "pending", attempt_count: 1 }, change: change(2, "succeeded") },
            { id: d3.id, from: { status: "failed", attempt_count: 0 }, change: change(1, "succeeded") },
            { id: later.id, from: { status: "pending", attempt_count: 0 }, change: change(1, "pending") },
          ]),
        )
        expect([...moved].sort(byId)).toEqual(
          [
            { ...head, ...change(1, "succeeded") },
            { ...later, ...change(1, "pending") },
          ].sort(byId),
        )
        for (const row of moved) expect(await deliveries((d) => d.findById(row.id))).toEqual(row)
        expect(await deliveries((d) => d.findById(d2.id))).toEqual({ ...d2, lane_id: head.id })
        expect(await deliveries((d) => d.compareAndSetMany([]))).toEqual([])
      },
    },
    {
      id: "webhook-deliveries.list-due",
      title:
        "listDue gives only pending deliveries (a delivered or failed one, whatever its next attempt time, is never due again) whose next attempt is at or before now: one due exactly now is due, one a millisecond later is not",
      run: async (harness) => {
        const ids = counterIds()
        const ws = ids.next("ws")
        const endpoint = ids.next("we")
        const deliveries = <T>(call: (tx: Repositories["webhookDeliveries"]) => Awaitable<T>) =>
          harness.storage.transaction((tx) => call(tx.webhookDeliveries))
        const now = "2030-03-07T00:00:10.000Z"
        const row = (next: string, fields: Partial<WebhookDeliveryRecord> = {}) =>
          deliveryRow(ids.next("whd"), ws, endpoint, ids.next("evt"), "2030-03-07T00:00:01.000Z", {
            next_attempt_at: next,
            ...fields,
          })
        const earlier = row("2030-03-07T00:00:02.000Z")
        const dueNow = row(now)
        const aMillisecondLater = row("2030-03-07T00:00:10.001Z")
        // Finished deliveries keep the time of the attempt they were waiting for: still never due.
        const delivered = row("2030-03-07T00:00:01.000Z", { status: "succeeded", attempt_count: 1 })
        const failed = row(now, { status: "failed", attempt_count: 10 })
        const lane = ids.next("whd")
        for (const each of [delivered, failed, aMillisecondLater, dueNow, earlier]) {
          expect(await deliveries((d) => d.insertIfNew(each))).toBe(true)
        }
        expect(await deliveries((d) => d.listDue(endpoint, now, lane, 10))).toEqual([earlier, dueNow])
        expect(await deliveries((d) => d.listDue(endpoint, now, lane, 1))).toEqual([earlier])
        expect(await deliveries((d) => d.listDue(endpoint, "2030-03-07T00:00:10.001Z", lane, 10))).toEqual([
          earlier,
          dueNow,
          aMillisecondLater,
        ])
        // A lane takes only pending deliveries, so the finished ones stay as they were.
        const takeLane = (laneId: WebhookDeliveryId) =>
          deliveries((d) => d.takeLane(laneId, endpoint, now, { size: 10, reach: 10 }))
        expect(await takeLane(earlier.id)).toEqual([earlier, dueNow].map((each) => ({ ...each, lane_id: earlier.id })))
        expect(await takeLane(failed.id)).toEqual([])
        expect(await deliveries((d) => d.findById(failed.id))).toEqual(failed)
        expect(await deliveries((d) => d.findById(delivered.id))).toEqual(delivered)
      },
    },
    {
      id: "webhook-deliveries.store-list-and-move",
      title:
        "a delivery is stored once per endpoint and event, every column round-trips, found only in its workspace, listed per endpoint newest first with its window and total, and moved only from the status and attempt count it was read with",
      run: async (harness) => {
        const ids = counterIds()
        const [ws, wsB] = [ids.next("ws"), ids.next("ws")]
        const [endpoint, otherEndpoint] = [ids.next("we"), ids.next("we")]
        const deliveries = <T>(call: (tx: Repositories["webhookDeliveries"]) => Awaitable<T>) =>
          harness.storage.transaction((tx) => call(tx.webhookDeliveries))
        const t = (second: number) => `2030-03-07T00:00:${String(second).padStart(2, "0")}.000Z`
        const rows = [1, 2, 3].map((n) => deliveryRow(ids.next("whd"), ws, endpoint, ids.next("evt"), t(n)))
        const [first, second, third] = rows as [WebhookDeliveryRecord, WebhookDeliveryRecord, WebhookDeliveryRecord]
        const other = deliveryRow(ids.next("whd"), ws, otherEndpoint, first.event_id, t(4))
        for (const row of [...rows, other]) expect(await deliveries((d) => d.insertIfNew(row))).toBe(true)
        // The same event to the same endpoint again: refused, whatever its id.
        const again = deliveryRow(ids.next("whd"), ws, endpoint, first.event_id, t(5))
        expect(await deliveries((d) => d.insertIfNew(again))).toBe(false)
        expect(await deliveries((d) => d.findById(again.id))).toBeUndefined()

        expect(await deliveries((d) => d.findById(first.id))).toEqual(first)
        expect(await deliveries((d) => d.find(ws, first.id))).toEqual(first)
        expect(await deliveries((d) => d.find(wsB, first.id))).toBeUndefined()
        const page = (offset: number, limit: number) =>
          deliveries((d) => d.listByEndpoint(ws, endpoint, { offset, limit }))
        expect(await page(0, 10)).toEqual({ rows: [third, second, first], total: 3 })
        expect(await page(0, 2)).toEqual({ rows: [third, second], total: 3 })
        expect(await page(2, 2)).toEqual({ rows: [first], total: 3 })
        expect(await deliveries((d) => d.listByEndpoint(wsB, endpoint, { offset: 0, limit: 10 }))).toEqual({
          rows: [],
          total: 0,
        })

        const change = {
          status: "pending" as const,
          attempt_count: 1,
          last_status_code: 500,
          next_attempt_at: t(30),
          attempts: '[{"number":1}]',
          updated_at: t(20),
          lane_id: null,
        }
        expect(
          await deliveries((d) => d.compareAndSet(first.id, { status: "failed", attempt_count: 0 }, change)),
        ).toBeUndefined()
        expect(
          await deliveries((d) => d.compareAndSet(first.id, { status: "pending", attempt_count: 1 }, change)),
        ).toBeUndefined()
        const moved = await deliveries((d) =>
          d.compareAndSet(first.id, { status: "pending", attempt_count: 0 }, change),
        )
        expect(moved).toEqual({ ...first, ...change })
        expect(await deliveries((d) => d.findById(first.id))).toEqual(moved)
        // Two writers that read it alike: one wins.
        const racing = await Promise.all(
          [2, 3].map((n) =>
            deliveries((d) =>
              d.compareAndSet(first.id, { status: "pending", attempt_count: 1 }, { ...change, attempt_count: n }),
            ),
          ),
        )
        expect(racing.filter((row) => row !== undefined)).toHaveLength(1)
      },
    },
    {
      id: "webhook-deliveries.list-failed",
      title:
        "listFailed gives an endpoint's failed deliveries created in the window (its start in, its end out), after the id given, in id order, up to the limit: not pending or succeeded ones, not another endpoint's",
      run: async (harness) => {
        const ids = counterIds()
        const ws = ids.next("ws")
        const [endpoint, otherEndpoint] = [ids.next("we"), ids.next("we")]
        const deliveries = <T>(call: (tx: Repositories["webhookDeliveries"]) => Awaitable<T>) =>
          harness.storage.transaction((tx) => call(tx.webhookDeliveries))
        const t = (minute: number) => `2030-03-07T00:${String(minute).padStart(2, "0")}:00.000Z`
        const row = (minute: number, fields: Partial<WebhookDeliveryRecord> = {}) =>
          deliveryRow(ids.next("whd"), ws, endpoint, ids.next("evt"), t(minute), { status: "failed", ...fields })
        // Ids in creation order, times out of it: the page is in id order whatever the times.
        const [before, atStart, a, b, c, atEnd] = [row(9), row(10), row(30), row(20), row(40), row(50)]
        const pending = row(20, { status: "pending" })
        const succeeded = row(20, { status: "succeeded" })
        const elsewhere = deliveryRow(ids.next("whd"), ws, otherEndpoint, ids.next("evt"), t(20), { status: "failed" })
        for (const each of [before, atStart, a, b, c, atEnd, pending, succeeded, elsewhere]) {
          expect(await deliveries((d) => d.insertIfNew(each))).toBe(true)
        }
        const window = { createdFrom: t(10), createdBefore: t(50) }
        const page = (afterId: WebhookDeliveryId | null, limit: number) =>
          deliveries((d) => d.listFailed(endpoint, window, afterId, limit))
        expect(await page(null, 10)).toEqual([atStart, a, b, c])
        expect(await page(null, 2)).toEqual([atStart, a])
        expect(await page(a.id, 2)).toEqual([b, c])
        expect(await page(c.id, 2)).toEqual([])
        expect(await deliveries((d) => d.listFailed(otherEndpoint, window, null, 10))).toEqual([elsewhere])
      },
    },
  ],
}
