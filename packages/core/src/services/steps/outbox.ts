import { Effect, Schema } from "effect"
import { deliveryMachine } from "../../machines/delivery-machine.ts"
import { begin } from "../../machines/stored-machine.ts"
import type { BankAccount, PaymentProfile } from "../../model/bank-account.ts"
import type { Entity } from "../../model/entity.ts"
import {
  type WebhookEventName,
  type WebhookEventNameOf,
  type WebhookEventPayload,
  webhookEventSchemas,
} from "../../model/events.ts"
import type { CompanyId, WorkspaceId } from "../../model/ids.ts"
import type { PaymentInstruction } from "../../model/payment.ts"
import { storedSubscriptions } from "../../model/webhook-endpoint.ts"
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
 * deliveries' jobs are due by the engine's clock (`ports.clock`), which runners read.
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
    for (const row of rows) yield* tx.events.append(row)
    yield* fanOutEvents(ports, tx, rows)
  })

/**
 * Fans events just written to the outbox out to the webhook endpoints subscribed to them, in the
 * same transaction: one delivery row per active endpoint of the event's company that subscribes
 * to its name, and one `deliver_webhook` job each. So a delivery exists exactly when its event
 * commits, and an endpoint made or subscribed later never receives an older event.
 */
export const fanOutEvents = (
  ports: Pick<EnginePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  events: ReadonlyArray<EventRecord>,
): Effect.Effect<void> =>
  Effect.gen(function* () {
    const companies = [...new Set(events.map((event) => event.company_id))]
    for (const companyId of companies) {
      const endpoints = yield* tx.webhookEndpoints.listActive(companyId)
      for (const endpoint of endpoints) {
        const subscribed = new Set(storedSubscriptions(endpoint).map((s) => s.event_name))
        for (const event of events) {
          if (event.company_id !== companyId || !subscribed.has(event.event)) continue
          const start = begin(deliveryMachine, { attempts: 0 })
          const row: WebhookDeliveryRecord = {
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
          if (!(yield* tx.webhookDeliveries.insertIfNew(row))) continue
          yield* enqueueJob(ports, tx, {
            kind: "deliver_webhook",
            payload: { delivery_id: row.id, workspace_id: row.workspace_id, attempt_count: 0 },
            key: deliveryJobKey(row.id, 0),
            workspaceId: row.workspace_id,
            queue: deliveryQueue(row.endpoint_id),
          })
        }
      }
    }
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
