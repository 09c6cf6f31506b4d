import { Effect, Schema } from "effect"
import { deliveryMachine } from "../../machines/delivery-machine.ts"
import { begin } from "../../machines/stored-machine.ts"
import type { BankAccount, PaymentProfile } from "../../model/bank-account.ts"
import type { Entity } from "../../model/entity.ts"
import {
  type WebhookEventName,
  type WebhookEventNameOf,
  type WebhookEventPayload,
  type webhookEventCatalogue,
  webhookEventSchemas,
} from "../../model/events.ts"
import type { CompanyId, WorkspaceId } from "../../model/ids.ts"
import type { PaymentInstruction } from "../../model/payment.ts"
import { storedSubscriptions, type WebhookEndpointRecord } from "../../model/webhook-endpoint.ts"
import type { Clock } from "../../ports/clock.ts"
import type { EventRecord, Repositories, WebhookDeliveryRecord } from "../../ports/storage/index.ts"
import { deliveryJobKey, deliveryQueue } from "./delivery-queue.ts"
import { enqueueJob } from "./job-queue.ts"
import type { EnginePorts } from "./service-ports.ts"
import type { Lifted } from "./transaction.ts"

/**
 * An event for the outbox: a payload of the catalogue (made by one of the builders below) and
 * who it belongs to. The row's event name and resource id are read from the payload, so they
 * cannot disagree with what is delivered.
 */
export interface OutgoingEvent {
  readonly workspaceId: WorkspaceId
  readonly companyId: CompanyId
  /** The webhook body; encoded with its event's schema on the way to the outbox. */
  readonly payload: WebhookEventPayload
}

/** The resource an event is about: named in the envelope, or else the data's own id. */
const resourceIdOf = (payload: WebhookEventPayload): string =>
  "resource_id" in payload ? payload.resource_id : payload.data.id

/**
 * The stored text of a payload: encoded with its event's schema, so the outbox holds the wire
 * shape. A payload its schema refuses is a defect of the caller, not a domain failure.
 */
const encodePayload = (payload: WebhookEventPayload): string => {
  const schema: Schema.Schema.AnyNoContext = webhookEventSchemas[payload.event]
  return JSON.stringify(Schema.encodeUnknownSync(schema)(payload))
}

/**
 * Appends events to the outbox, in the caller's transaction, with their webhook deliveries
 * (`fanOutEvents`). Rows are stamped by `stampedBy` (a workspace's clock in sandbox mode); the
 * deliveries' jobs are due by the engine's clock (`ports.clock`), which runners read. The first
 * event of each company is appended with the read of its endpoints, one round trip for both.
 */
export const appendEvents = (
  ports: Pick<EnginePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  events: ReadonlyArray<OutgoingEvent>,
  stampedBy: Clock = ports.clock,
): Effect.Effect<void> =>
  Effect.gen(function* () {
    const rows = events.map(
      (e): EventRecord => ({
        id: ports.ids.next("evt"),
        workspace_id: e.workspaceId,
        company_id: e.companyId,
        event: e.payload.event,
        resource_id: resourceIdOf(e.payload),
        payload: encodePayload(e.payload),
        created_at: stampedBy.now().toISOString(),
      }),
    )
    const endpointsOf = new Map<CompanyId, ReadonlyArray<WebhookEndpointRecord>>()
    for (const row of rows) {
      if (endpointsOf.has(row.company_id)) yield* tx.events.append(row)
      else endpointsOf.set(row.company_id, yield* tx.events.appendListingEndpoints(row))
    }
    for (const [companyId, endpoints] of endpointsOf) {
      yield* fanOutEvents(
        ports,
        tx,
        rows.filter((row) => row.company_id === companyId),
        endpoints,
      )
    }
  })

/**
 * Fans events of one company just written to the outbox out to its webhook endpoints (its live,
 * active ones, read with the events) subscribed to them, in the same transaction: one delivery
 * row per endpoint that subscribes to an event's name, and one `deliver_webhook` job each. So a
 * delivery exists exactly when its event commits, and an endpoint made or subscribed later never
 * receives an older event.
 */
const fanOutEvents = (
  ports: Pick<EnginePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  events: ReadonlyArray<EventRecord>,
  endpoints: ReadonlyArray<WebhookEndpointRecord>,
): Effect.Effect<void> =>
  Effect.gen(function* () {
    for (const endpoint of endpoints) {
      const subscribed = new Set(storedSubscriptions(endpoint).map((s) => s.event_name))
      for (const event of events) {
        if (!subscribed.has(event.event)) continue
        const row = deliveryOf(ports, event, endpoint)
        if (!(yield* tx.webhookDeliveries.insertIfNew(row))) continue
        yield* enqueueJob(ports, tx, {
          kind: "deliver_webhook",
          payload: {
            delivery_id: row.id,
            workspace_id: row.workspace_id,
            attempt_count: 0,
            company_id: row.company_id,
          },
          key: deliveryJobKey(row.id, 0),
          workspaceId: row.workspace_id,
          queue: deliveryQueue(row.endpoint_id),
        })
      }
    }
  })

/** A new delivery of `event` to `endpoint`: pending, due when the event was written, no attempt yet. */
const deliveryOf = (
  ports: Pick<EnginePorts, "ids">,
  event: EventRecord,
  endpoint: WebhookEndpointRecord,
): WebhookDeliveryRecord => {
  const start = begin(deliveryMachine, { attempts: 0 })
  return {
    id: ports.ids.next("whd"),
    workspace_id: event.workspace_id,
    company_id: event.company_id,
    endpoint_id: endpoint.id,
    event_id: event.id,
    event_name: event.event,
    payload: event.payload,
    status: start.status,
    machine_version: deliveryMachine.version,
    attempt_count: 0,
    last_status_code: null,
    next_attempt_at: event.created_at,
    attempts: "[]",
    created_at: event.created_at,
    updated_at: event.created_at,
    lane_id: null,
  }
}

/**
 * Appends an event to the outbox, in the caller's transaction, with one delivery to `endpoint`
 * alone whatever the endpoint subscribes to (an endpoint's test): the delivery is held in a lane
 * of its own (`lane_id` its id), so no delivery job sends it while the caller does; no job is
 * queued. Answers the delivery.
 */
export const appendEventToEndpoint = (
  ports: Pick<EnginePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  endpoint: WebhookEndpointRecord,
  payload: WebhookEventPayload,
  stampedBy: Clock = ports.clock,
): Effect.Effect<WebhookDeliveryRecord> =>
  Effect.gen(function* () {
    const event: EventRecord = {
      id: ports.ids.next("evt"),
      workspace_id: endpoint.workspace_id,
      company_id: endpoint.company_id,
      event: payload.event,
      resource_id: resourceIdOf(payload),
      payload: encodePayload(payload),
      created_at: stampedBy.now().toISOString(),
    }
    yield* tx.events.append(event)
    const delivery = deliveryOf(ports, event, endpoint)
    const held = { ...delivery, lane_id: delivery.id }
    yield* tx.webhookDeliveries.insertIfNew(held)
    return held
  })

/** Unix seconds, the timestamp of bank-account and payment-profile webhooks. */
export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000)

/**
 * The payload of event `N`, for the builders below: TypeScript cannot resolve the catalogue's
 * mapped type while `N` is generic, so each builder's shape is checked against its schema by
 * `model/events.test.ts` instead (every payload it makes decodes).
 */
const asPayload = <N extends WebhookEventName>(payload: object): WebhookEventPayload<N> =>
  payload as WebhookEventPayload<N>

/**
 * A payment event (ISO 8601 timestamp, company and payment named beside the Payment Instruction).
 */
export const paymentEventPayload = <N extends WebhookEventNameOf<"PaymentEvents">>(
  event: N,
  input: { readonly now: Date; readonly companyId: string; readonly data: PaymentInstruction },
): WebhookEventPayload<N> =>
  asPayload<N>({
    event,
    timestamp: input.now.toISOString(),
    company_id: input.companyId,
    resource_id: input.data.id,
    data: input.data,
  })

/**
 * A bank-account event (Unix-seconds timestamp, the Bank Account as data).
 */
export const bankAccountEventPayload = <N extends WebhookEventNameOf<"BankAccountEvents">>(
  event: N,
  input: { readonly now: Date; readonly data: BankAccount },
): WebhookEventPayload<N> => asPayload<N>({ event, timestamp: unixSeconds(input.now), data: input.data })

/**
 * A payment-profile event (Unix-seconds timestamp, the Payment Profile as data).
 */
export const paymentProfileEventPayload = <N extends WebhookEventNameOf<"PaymentProfileEvents">>(
  event: N,
  input: { readonly now: Date; readonly data: PaymentProfile },
): WebhookEventPayload<N> => asPayload<N>({ event, timestamp: unixSeconds(input.now), data: input.data })

/**
 * The batch digest (ISO 8601 timestamp, the batch as resource, no actor).
 */
export const paymentBatchEventPayload = (input: {
  readonly now: Date
  readonly companyId: string
  readonly batchId: string
}): WebhookEventPayload<"PaymentBatchCompletedEvent"> => ({
  event: "PaymentBatchCompletedEvent",
  timestamp: input.now.toISOString(),
  company_id: input.companyId,
  resource_id: input.batchId,
  actor_id: null,
})

/**
 * An entity event (ISO 8601 timestamp, company and entity named beside the Entity).
 */
export const entityEventPayload = <N extends WebhookEventNameOf<"EntityEvents">>(
  event: N,
  input: { readonly now: Date; readonly data: Entity },
): WebhookEventPayload<N> =>
  asPayload<N>({
    event,
    timestamp: input.now.toISOString(),
    company_id: input.data.company_id,
    resource_id: input.data.id,
    data: input.data,
  })

/**
 * A webhook endpoint's event (ISO 8601 timestamp, company and endpoint named beside its data):
 * a test delivery's, or the engine's deactivation of it.
 */
export const webhookEndpointEventPayload = <N extends WebhookEventNameOf<"WebhookEndpointEvents">>(
  event: N,
  input: {
    readonly now: Date
    readonly companyId: string
    readonly data: Schema.Schema.Type<(typeof webhookEventCatalogue)["WebhookEndpointEvents"][N]>["data"]
  },
): WebhookEventPayload<N> =>
  asPayload<N>({
    event,
    timestamp: input.now.toISOString(),
    company_id: input.companyId,
    resource_id: input.data.id,
    data: input.data,
  })
