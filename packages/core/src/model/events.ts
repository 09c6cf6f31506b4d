import { Schema } from "effect"
import { BankAccount, PaymentProfile } from "./bank-account.ts"
import { Entity } from "./entity.ts"
import { CompanyId, EventId, WorkspaceId } from "./ids.ts"
import { PaymentInstruction } from "./payment.ts"

/**
 * The timestamp of payment, batch and entity webhooks: ISO 8601 in UTC, as `Date#toISOString`
 * writes it. Receivers de-duplicate on it, so its format is part of the contract.
 *
 * @example Schema.decodeUnknownSync(EventIsoTimestamp)("2026-01-01T00:00:00.000Z")
 */
export const EventIsoTimestamp = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/),
  Schema.filter((s) => !Number.isNaN(Date.parse(s)), { message: () => "must be a valid ISO 8601 timestamp" }),
).annotations({
  identifier: "EventIsoTimestamp",
  description: "ISO 8601 timestamp in UTC",
  examples: ["2026-01-01T00:00:00.000Z"],
})

/**
 * The timestamp of bank-account and payment-profile webhooks: whole Unix seconds, as the spec's
 * examples of those events show.
 *
 * @example Schema.decodeUnknownSync(EventUnixSeconds)(1767225600)
 */
export const EventUnixSeconds = Schema.Int.pipe(Schema.nonNegative()).annotations({
  identifier: "EventUnixSeconds",
  description: "Unix time in whole seconds",
  examples: [1767225600],
})

/** The envelope of events that name their company and resource beside the data (ISO timestamp). */
const resourceEvent = <N extends string, D extends Schema.Schema.AnyNoContext>(name: N, data: D, identifier: string) =>
  Schema.Struct({
    event: Schema.Literal(name),
    timestamp: EventIsoTimestamp,
    company_id: Schema.String,
    resource_id: Schema.String,
    data,
  }).annotations({ identifier })

/** The envelope of bank-account and payment-profile events: only the data (Unix-seconds timestamp). */
const dataEvent = <N extends string, D extends Schema.Schema.AnyNoContext>(name: N, data: D, identifier: string) =>
  Schema.Struct({ event: Schema.Literal(name), timestamp: EventUnixSeconds, data }).annotations({ identifier })

/** A payment event (DECISIONS "Payment events"): the Payment Instruction as data. */
const paymentEvent = <N extends `PaymentEvents::${string}`>(name: N, identifier: string) =>
  resourceEvent(name, PaymentInstruction, identifier)

/** Payload of `PaymentEvents::CompletedEvent`: a payment completed. */
export const PaymentCompletedEvent = paymentEvent("PaymentEvents::CompletedEvent", "PaymentCompletedEvent")
/** Payload of `PaymentEvents::FailedEvent`: a payment failed. */
export const PaymentFailedEvent = paymentEvent("PaymentEvents::FailedEvent", "PaymentFailedEvent")
/** Payload of `PaymentEvents::CancelledEvent`: a payment was cancelled. */
export const PaymentCancelledEvent = paymentEvent("PaymentEvents::CancelledEvent", "PaymentCancelledEvent")
/** Payload of `PaymentEvents::DebitInitiatedEvent`: a payment with a debit payment order was triggered. */
export const PaymentDebitInitiatedEvent = paymentEvent(
  "PaymentEvents::DebitInitiatedEvent",
  "PaymentDebitInitiatedEvent",
)

/** Payload of `BankAccountEvents::CreatedEvent`: the Bank Account with details and profiles. */
export const BankAccountCreatedEvent = dataEvent(
  "BankAccountEvents::CreatedEvent",
  BankAccount,
  "BankAccountCreatedEvent",
)
/** Payload of `BankAccountEvents::UpdatedEvent`: the Bank Account as it is now. */
export const BankAccountUpdatedEvent = dataEvent(
  "BankAccountEvents::UpdatedEvent",
  BankAccount,
  "BankAccountUpdatedEvent",
)
/** Payload of `BankAccountEvents::DeletedEvent`: the Bank Account as it was. */
export const BankAccountDeletedEvent = dataEvent(
  "BankAccountEvents::DeletedEvent",
  BankAccount,
  "BankAccountDeletedEvent",
)

/** Payload of `PaymentProfileEvents::CreatedEvent`: the Payment Profile with its timestamps. */
export const PaymentProfileCreatedEvent = dataEvent(
  "PaymentProfileEvents::CreatedEvent",
  PaymentProfile,
  "PaymentProfileCreatedEvent",
)
/** Payload of `PaymentProfileEvents::FailedEvent`: the profile that can no longer be used. */
export const PaymentProfileFailedEvent = dataEvent(
  "PaymentProfileEvents::FailedEvent",
  PaymentProfile,
  "PaymentProfileFailedEvent",
)

/**
 * Payload of `PaymentBatchCompletedEvent`, one digest per batch: no data, `resource_id` is the
 * batch id and `actor_id` is always null, as the spec shows it.
 */
export const PaymentBatchCompletedEvent = Schema.Struct({
  event: Schema.Literal("PaymentBatchCompletedEvent"),
  timestamp: EventIsoTimestamp,
  company_id: Schema.String,
  resource_id: Schema.String,
  actor_id: Schema.Null,
}).annotations({ identifier: "PaymentBatchCompletedEvent" })

/** Payload of `entity.created` (DECISIONS "Entity events"): the Entity as data. */
export const EntityCreatedEvent = resourceEvent("entity.created", Entity, "EntityCreatedEvent")
/** Payload of `entity.updated`: the Entity as it is now. */
export const EntityUpdatedEvent = resourceEvent("entity.updated", Entity, "EntityUpdatedEvent")
/** Payload of `entity.deleted`: the Entity as it was. */
export const EntityDeletedEvent = resourceEvent("entity.deleted", Entity, "EntityDeletedEvent")

/**
 * Every webhook event the spec names, grouped by category in the spec's order, each with the
 * Schema of its payload. `GET /api/v1/webhook_events` lists it (see {@link webhookEventGroups});
 * the outbox encodes every payload with its schema (see {@link webhookEventSchemas}).
 *
 * @example webhookEventCatalogue.PaymentEvents["PaymentEvents::CompletedEvent"] // PaymentCompletedEvent
 */
export const webhookEventCatalogue = {
  PaymentEvents: {
    "PaymentEvents::CompletedEvent": PaymentCompletedEvent,
    "PaymentEvents::FailedEvent": PaymentFailedEvent,
    "PaymentEvents::CancelledEvent": PaymentCancelledEvent,
    "PaymentEvents::DebitInitiatedEvent": PaymentDebitInitiatedEvent,
  },
  BankAccountEvents: {
    "BankAccountEvents::CreatedEvent": BankAccountCreatedEvent,
    "BankAccountEvents::UpdatedEvent": BankAccountUpdatedEvent,
    "BankAccountEvents::DeletedEvent": BankAccountDeletedEvent,
  },
  PaymentProfileEvents: {
    "PaymentProfileEvents::CreatedEvent": PaymentProfileCreatedEvent,
    "PaymentProfileEvents::FailedEvent": PaymentProfileFailedEvent,
  },
  PaymentBatchEvents: {
    PaymentBatchCompletedEvent,
  },
  EntityEvents: {
    "entity.created": EntityCreatedEvent,
    "entity.updated": EntityUpdatedEvent,
    "entity.deleted": EntityDeletedEvent,
  },
} as const

type Catalogue = typeof webhookEventCatalogue

/** A category of {@link webhookEventCatalogue}, e.g. `"PaymentEvents"`. */
export type WebhookEventCategory = keyof Catalogue

/** The event names of one category, e.g. `WebhookEventNameOf<"BankAccountEvents">`. */
export type WebhookEventNameOf<C extends WebhookEventCategory> = keyof Catalogue[C] & string

/** Every webhook event name, derived from {@link webhookEventCatalogue}. */
export type WebhookEventName = { [C in WebhookEventCategory]: WebhookEventNameOf<C> }[WebhookEventCategory]

/** The payload schema of each event name. */
export type WebhookEventSchemas = {
  readonly [N in WebhookEventName]: {
    [C in WebhookEventCategory]: N extends keyof Catalogue[C] ? Catalogue[C][N] : never
  }[WebhookEventCategory]
}

/**
 * The catalogue flattened by event name, for looking a payload's schema up by its `event`.
 *
 * @example
 * declare const row: EventRecord
 * Schema.decodeUnknownSync(webhookEventSchemas["PaymentEvents::CompletedEvent"])(JSON.parse(row.payload))
 */
export const webhookEventSchemas: WebhookEventSchemas = Object.assign({}, ...Object.values(webhookEventCatalogue))

/**
 * The payload of event `N` as services build it; a union over every event when `N` is left out,
 * discriminated by `event`.
 */
export type WebhookEventPayload<N extends WebhookEventName = WebhookEventName> = {
  [K in N]: Schema.Schema.Type<WebhookEventSchemas[K]>
}[N]

/**
 * The catalogue as `GET /api/v1/webhook_events` will answer it: categories in the spec's order,
 * each with its event names.
 *
 * @example webhookEventGroups[0] // { category: "PaymentEvents", events: ["PaymentEvents::CompletedEvent", ...] }
 */
export const webhookEventGroups: ReadonlyArray<{
  readonly category: WebhookEventCategory
  readonly events: ReadonlyArray<WebhookEventName>
}> = (Object.keys(webhookEventCatalogue) as WebhookEventCategory[]).map((category) => ({
  category,
  events: Object.keys(webhookEventCatalogue[category]) as WebhookEventName[],
}))

/** Every webhook event name, in catalogue order: what an endpoint may subscribe to. */
export const webhookEventNames: ReadonlyArray<WebhookEventName> = webhookEventGroups.flatMap((g) => g.events)

/** What `GET /api/v1/webhook_events` says of one event: its name for people, its action, and when it is sent. */
export interface WebhookEventDescription {
  readonly display_name: string
  /** The verb of the event within its category, e.g. `completed`, `created`. */
  readonly action: string
  readonly description: string
}

/** What `GET /api/v1/webhook_events` says of one category. */
export interface WebhookCategoryDescription {
  readonly display_name: string
  readonly description: string
}

/**
 * The words of the catalogue: every category and every event of {@link webhookEventCatalogue}
 * described once, in the spec's terms ("Emitted when"). Typed over the catalogue, so an event
 * added there without its description here does not compile.
 */
export const webhookEventDescriptions: {
  readonly categories: { readonly [C in WebhookEventCategory]: WebhookCategoryDescription }
  readonly events: { readonly [N in WebhookEventName]: WebhookEventDescription }
} = {
  categories: {
    PaymentEvents: { display_name: "Payment events", description: "Changes of a payment instruction's status" },
    BankAccountEvents: {
      display_name: "Bank account events",
      description: "Bank accounts created, updated or deleted, by API or hosted page",
    },
    PaymentProfileEvents: {
      display_name: "Payment profile events",
      description: "Payment profiles created for a bank account, or no longer usable",
    },
    PaymentBatchEvents: {
      display_name: "Payment batch events",
      description: "One digest per batch when all its payments have finished",
    },
    EntityEvents: { display_name: "Entity events", description: "Entities created, updated or deleted" },
  },
  events: {
    "PaymentEvents::CompletedEvent": {
      display_name: "Payment completed",
      action: "completed",
      description: "A payment is completed (not sent for payments in a batch)",
    },
    "PaymentEvents::FailedEvent": {
      display_name: "Payment failed",
      action: "failed",
      description: "A payment fails (not sent for payments in a batch)",
    },
    "PaymentEvents::CancelledEvent": {
      display_name: "Payment cancelled",
      action: "cancelled",
      description: "A payment is cancelled",
    },
    "PaymentEvents::DebitInitiatedEvent": {
      display_name: "Payment debit initiated",
      action: "debit_initiated",
      description:
        "A payment that has a payment order with direction debit is triggered (not sent for payments in a batch)",
    },
    "BankAccountEvents::CreatedEvent": {
      display_name: "Bank account created",
      action: "created",
      description: "A bank account is created (API or hosted page, including funding account linking)",
    },
    "BankAccountEvents::UpdatedEvent": {
      display_name: "Bank account updated",
      action: "updated",
      description: "A bank account is updated",
    },
    "BankAccountEvents::DeletedEvent": {
      display_name: "Bank account deleted",
      action: "deleted",
      description: "A bank account is deleted",
    },
    "PaymentProfileEvents::CreatedEvent": {
      display_name: "Payment profile created",
      action: "created",
      description: "A payment profile is created for a bank account",
    },
    "PaymentProfileEvents::FailedEvent": {
      display_name: "Payment profile failed",
      action: "failed",
      description: "A payment profile becomes unable to be used for payments",
    },
    PaymentBatchCompletedEvent: {
      display_name: "Payment batch completed",
      action: "completed",
      description: "All payments of a batch have finished (one digest per batch)",
    },
    "entity.created": { display_name: "Entity created", action: "created", description: "An entity is created" },
    "entity.updated": { display_name: "Entity updated", action: "updated", description: "An entity is updated" },
    "entity.deleted": { display_name: "Entity deleted", action: "deleted", description: "An entity is deleted" },
  },
}

/** One event of a category in `GET /api/v1/webhook_events`. */
export const WebhookEventEntry = Schema.Struct({
  event_name: Schema.String,
  display_name: Schema.String,
  action: Schema.String,
  description: Schema.String,
}).annotations({ identifier: "WebhookEventEntry" })

/** One category of `GET /api/v1/webhook_events`, with its events. */
export const WebhookEventCategoryEntry = Schema.Struct({
  category_name: Schema.String,
  display_name: Schema.String,
  description: Schema.String,
  event_count: Schema.Number,
  events: Schema.Array(WebhookEventEntry),
}).annotations({ identifier: "WebhookEventCategory" })
export type WebhookEventCategoryEntry = typeof WebhookEventCategoryEntry.Type

/**
 * The catalogue as `GET /api/v1/webhook_events` answers it: {@link webhookEventGroups} with the
 * words of {@link webhookEventDescriptions}, categories and events in the spec's order.
 */
export const webhookEventListing: ReadonlyArray<WebhookEventCategoryEntry> = webhookEventGroups.map((group) => ({
  category_name: group.category,
  ...webhookEventDescriptions.categories[group.category],
  event_count: group.events.length,
  events: group.events.map((name) => ({ event_name: name, ...webhookEventDescriptions.events[name] })),
}))

/** The category of an event name of the catalogue. */
export const webhookEventCategoryOf = (name: WebhookEventName): WebhookEventCategory =>
  webhookEventGroups.find((group) => group.events.includes(name))!.category

/** Whether `name` is an event of the catalogue (exact spelling). */
export const isWebhookEventName = (name: string): name is WebhookEventName => Object.hasOwn(webhookEventSchemas, name)

/**
 * An outbox event as storage keeps it: the webhook body as JSON text, with its tenancy and the
 * name it is sent under, written in the same transaction as the change it reports. The storage
 * port's `EventRecord` is its type.
 */
export const StoredEvent = Schema.Struct({
  id: EventId,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  /** The event name, e.g. "PaymentEvents::CompletedEvent". */
  event: Schema.String,
  resource_id: Schema.String,
  /** The webhook body, JSON text. */
  payload: Schema.String,
  created_at: Schema.String,
})

/** A stored outbox event: the type of {@link StoredEvent}. */
export type EventRecord = typeof StoredEvent.Type
