import { Schema } from "effect"
import { BankAccount, PaymentProfile } from "./bank-account.ts"
import { Entity } from "./entity.ts"
import { CompanyId, EventId, WebhookEndpointId, WorkspaceId } from "./ids.ts"
import { PaymentInstruction } from "./payment.ts"
import type * as Types from "./types/events.ts"
import type {
  EventFilter,
  EventRecord,
  WebhookCategoryDescription,
  WebhookEventCategory,
  WebhookEventDescription,
  WebhookEventName,
} from "./types/events.ts"

export * from "./types/events.ts"

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

/**
 * The Schema of an event that names its company and resource beside the data. Named, so that the
 * declarations say `ResourceEvent<name, typeof Data>` instead of writing out the data's whole Schema
 * in every event (a consumer's compiler checked each copy).
 */
export type ResourceEvent<N extends string, D extends Schema.Schema.AnyNoContext> = Schema.Struct<{
  event: Schema.Literal<[N]>
  timestamp: typeof EventIsoTimestamp
  company_id: typeof Schema.String
  resource_id: typeof Schema.String
  data: D
}>

/** The Schema of a bank-account or payment-profile event: only the data; see {@link ResourceEvent}. */
export type DataEvent<N extends string, D extends Schema.Schema.AnyNoContext> = Schema.Struct<{
  event: Schema.Literal<[N]>
  timestamp: typeof EventUnixSeconds
  data: D
}>

/** The envelope of events that name their company and resource beside the data (ISO timestamp). */
const resourceEvent = <N extends string, D extends Schema.Schema.AnyNoContext>(
  name: N,
  data: D,
  identifier: string,
): ResourceEvent<N, D> =>
  Schema.Struct({
    event: Schema.Literal(name),
    timestamp: EventIsoTimestamp,
    company_id: Schema.String,
    resource_id: Schema.String,
    data,
  }).annotations({ identifier })

/** The envelope of bank-account and payment-profile events: only the data (Unix-seconds timestamp). */
const dataEvent = <N extends string, D extends Schema.Schema.AnyNoContext>(
  name: N,
  data: D,
  identifier: string,
): DataEvent<N, D> =>
  Schema.Struct({ event: Schema.Literal(name), timestamp: EventUnixSeconds, data }).annotations({ identifier })

/** A payment event (DECISIONS "Payment events"): the Payment Instruction as data. */
const paymentEvent = <N extends `PaymentEvents::${string}`>(
  name: N,
  identifier: string,
): ResourceEvent<N, typeof PaymentInstruction> => resourceEvent(name, PaymentInstruction, identifier)

/** Payload of `PaymentEvents::CompletedEvent`: a payment completed. */
export const PaymentCompletedEvent: ResourceEvent<"PaymentEvents::CompletedEvent", typeof PaymentInstruction> =
  paymentEvent("PaymentEvents::CompletedEvent", "PaymentCompletedEvent")
/** Payload of `PaymentEvents::FailedEvent`: a payment failed. */
export const PaymentFailedEvent: ResourceEvent<"PaymentEvents::FailedEvent", typeof PaymentInstruction> = paymentEvent(
  "PaymentEvents::FailedEvent",
  "PaymentFailedEvent",
)
/** Payload of `PaymentEvents::CancelledEvent`: a payment was cancelled. */
export const PaymentCancelledEvent: ResourceEvent<"PaymentEvents::CancelledEvent", typeof PaymentInstruction> =
  paymentEvent("PaymentEvents::CancelledEvent", "PaymentCancelledEvent")
/** Payload of `PaymentEvents::DebitInitiatedEvent`: a payment with a debit payment order was triggered. */
export const PaymentDebitInitiatedEvent: ResourceEvent<
  "PaymentEvents::DebitInitiatedEvent",
  typeof PaymentInstruction
> = paymentEvent("PaymentEvents::DebitInitiatedEvent", "PaymentDebitInitiatedEvent")

/** Payload of `BankAccountEvents::CreatedEvent`: the Bank Account with details and profiles. */
export const BankAccountCreatedEvent: DataEvent<"BankAccountEvents::CreatedEvent", typeof BankAccount> = dataEvent(
  "BankAccountEvents::CreatedEvent",
  BankAccount,
  "BankAccountCreatedEvent",
)
/** Payload of `BankAccountEvents::UpdatedEvent`: the Bank Account as it is now. */
export const BankAccountUpdatedEvent: DataEvent<"BankAccountEvents::UpdatedEvent", typeof BankAccount> = dataEvent(
  "BankAccountEvents::UpdatedEvent",
  BankAccount,
  "BankAccountUpdatedEvent",
)
/** Payload of `BankAccountEvents::DeletedEvent`: the Bank Account as it was. */
export const BankAccountDeletedEvent: DataEvent<"BankAccountEvents::DeletedEvent", typeof BankAccount> = dataEvent(
  "BankAccountEvents::DeletedEvent",
  BankAccount,
  "BankAccountDeletedEvent",
)

/** Payload of `PaymentProfileEvents::CreatedEvent`: the Payment Profile with its timestamps. */
export const PaymentProfileCreatedEvent: DataEvent<"PaymentProfileEvents::CreatedEvent", typeof PaymentProfile> =
  dataEvent("PaymentProfileEvents::CreatedEvent", PaymentProfile, "PaymentProfileCreatedEvent")
/** Payload of `PaymentProfileEvents::FailedEvent`: the profile that can no longer be used. */
export const PaymentProfileFailedEvent: DataEvent<"PaymentProfileEvents::FailedEvent", typeof PaymentProfile> =
  dataEvent("PaymentProfileEvents::FailedEvent", PaymentProfile, "PaymentProfileFailedEvent")

const paymentBatchCompletedEventFields = {
  event: Schema.Literal("PaymentBatchCompletedEvent"),
  timestamp: EventIsoTimestamp,
  company_id: Schema.String,
  resource_id: Schema.String,
  actor_id: Schema.Null,
}

/** The Schema of {@link PaymentBatchCompletedEvent}, named so that declarations refer to it instead of copying it. */
export interface PaymentBatchCompletedEventSchema extends Schema.Struct<typeof paymentBatchCompletedEventFields> {}
/**
 * Payload of `PaymentBatchCompletedEvent`, one digest per batch: no data, `resource_id` is the
 * batch id and `actor_id` is always null, as the spec shows it.
 */
export const PaymentBatchCompletedEvent: PaymentBatchCompletedEventSchema = Schema.Struct(
  paymentBatchCompletedEventFields,
).annotations({ identifier: "PaymentBatchCompletedEvent" })

/** Payload of `entity.created` (DECISIONS "Entity events"): the Entity as data. */
export const EntityCreatedEvent: ResourceEvent<"entity.created", typeof Entity> = resourceEvent(
  "entity.created",
  Entity,
  "EntityCreatedEvent",
)
/** Payload of `entity.updated`: the Entity as it is now. */
export const EntityUpdatedEvent: ResourceEvent<"entity.updated", typeof Entity> = resourceEvent(
  "entity.updated",
  Entity,
  "EntityUpdatedEvent",
)
/** Payload of `entity.deleted`: the Entity as it was. */
export const EntityDeletedEvent: ResourceEvent<"entity.deleted", typeof Entity> = resourceEvent(
  "entity.deleted",
  Entity,
  "EntityDeletedEvent",
)

const webhookEndpointTestDataFields = {
  id: WebhookEndpointId,
  url: Schema.String,
}

/** The Schema of {@link WebhookEndpointTestData}, named so that declarations refer to it instead of copying it. */
export interface WebhookEndpointTestDataSchema extends Schema.Struct<typeof webhookEndpointTestDataFields> {}
/** The data of a test event: the endpoint it was sent to. */
export const WebhookEndpointTestData: WebhookEndpointTestDataSchema = Schema.Struct(
  webhookEndpointTestDataFields,
).annotations({ identifier: "WebhookEndpointTestData" })

/** Payload of `WebhookEndpointEvents::TestEvent`: sent by `POST .../webhook_endpoints/{id}/test` to that endpoint alone. */
export const WebhookEndpointTestEvent: ResourceEvent<
  "WebhookEndpointEvents::TestEvent",
  typeof WebhookEndpointTestData
> = resourceEvent("WebhookEndpointEvents::TestEvent", WebhookEndpointTestData, "WebhookEndpointTestEvent")

const webhookEndpointDisabledDataFields = {
  id: WebhookEndpointId,
  url: Schema.String,
  disabled_reason: Schema.Literal("deliveries_failing"),
  disabled_at: EventIsoTimestamp,
  /** When its failed attempts in a row began. */
  failing_since: EventIsoTimestamp,
  /** A count, so a whole number: JSON has no infinity, and a payload must decode as it was sent. */
  consecutive_failures: Schema.Int.pipe(Schema.nonNegative()),
}

/** The Schema of {@link WebhookEndpointDisabledData}, named so that declarations refer to it instead of copying it. */
export interface WebhookEndpointDisabledDataSchema extends Schema.Struct<typeof webhookEndpointDisabledDataFields> {}
/** The data of an endpoint-disabled event: which endpoint, why, since when it failed. */
export const WebhookEndpointDisabledData: WebhookEndpointDisabledDataSchema = Schema.Struct(
  webhookEndpointDisabledDataFields,
).annotations({ identifier: "WebhookEndpointDisabledData" })

/**
 * Payload of `WebhookEndpointEvents::DisabledEvent`: the engine deactivated an endpoint whose every
 * attempt failed for 5 days; sent to the company's other active endpoints subscribed to it.
 */
export const WebhookEndpointDisabledEvent: ResourceEvent<
  "WebhookEndpointEvents::DisabledEvent",
  typeof WebhookEndpointDisabledData
> = resourceEvent("WebhookEndpointEvents::DisabledEvent", WebhookEndpointDisabledData, "WebhookEndpointDisabledEvent")

/**
 * Every webhook event the spec names, grouped by category in the spec's order, each with the
 * Schema of its payload. `GET /api/v1/webhook_events` lists it (see {@link webhookEventGroups});
 * the outbox encodes every payload with its schema (see {@link webhookEventSchemas}).
 *
 * @example webhookEventCatalogue.PaymentEvents["PaymentEvents::CompletedEvent"] // PaymentCompletedEvent
 */
export const webhookEventCatalogue: {
  readonly PaymentEvents: {
    readonly "PaymentEvents::CompletedEvent": typeof PaymentCompletedEvent
    readonly "PaymentEvents::FailedEvent": typeof PaymentFailedEvent
    readonly "PaymentEvents::CancelledEvent": typeof PaymentCancelledEvent
    readonly "PaymentEvents::DebitInitiatedEvent": typeof PaymentDebitInitiatedEvent
  }
  readonly BankAccountEvents: {
    readonly "BankAccountEvents::CreatedEvent": typeof BankAccountCreatedEvent
    readonly "BankAccountEvents::UpdatedEvent": typeof BankAccountUpdatedEvent
    readonly "BankAccountEvents::DeletedEvent": typeof BankAccountDeletedEvent
  }
  readonly PaymentProfileEvents: {
    readonly "PaymentProfileEvents::CreatedEvent": typeof PaymentProfileCreatedEvent
    readonly "PaymentProfileEvents::FailedEvent": typeof PaymentProfileFailedEvent
  }
  readonly PaymentBatchEvents: { readonly PaymentBatchCompletedEvent: typeof PaymentBatchCompletedEvent }
  readonly EntityEvents: {
    readonly "entity.created": typeof EntityCreatedEvent
    readonly "entity.updated": typeof EntityUpdatedEvent
    readonly "entity.deleted": typeof EntityDeletedEvent
  }
  readonly WebhookEndpointEvents: {
    readonly "WebhookEndpointEvents::DisabledEvent": typeof WebhookEndpointDisabledEvent
    readonly "WebhookEndpointEvents::TestEvent": typeof WebhookEndpointTestEvent
  }
} = {
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
  WebhookEndpointEvents: {
    "WebhookEndpointEvents::DisabledEvent": WebhookEndpointDisabledEvent,
    "WebhookEndpointEvents::TestEvent": WebhookEndpointTestEvent,
  },
} as const

type Catalogue = typeof webhookEventCatalogue

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
    WebhookEndpointEvents: {
      display_name: "Webhook endpoint events",
      description: "Webhook endpoints disabled by the engine, and test deliveries",
    },
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
    "WebhookEndpointEvents::DisabledEvent": {
      display_name: "Webhook endpoint disabled",
      action: "disabled",
      description:
        "The engine deactivated a webhook endpoint of the company whose every delivery attempt failed for 5 days (sent to its other endpoints)",
    },
    "WebhookEndpointEvents::TestEvent": {
      display_name: "Webhook endpoint test",
      action: "test",
      description:
        "Sent by POST .../webhook_endpoints/{id}/test to that endpoint alone, whatever it subscribes to (subscribing to it changes nothing)",
    },
  },
}

const webhookEventEntryFields = {
  event_name: Schema.String,
  display_name: Schema.String,
  action: Schema.String,
  description: Schema.String,
}

/** The Schema of {@link WebhookEventEntry}, named so that declarations refer to it instead of copying it. */
export interface WebhookEventEntrySchema extends Schema.Struct<typeof webhookEventEntryFields> {}
/** One event of a category in `GET /api/v1/webhook_events`. */
export const WebhookEventEntry: WebhookEventEntrySchema = Schema.Struct(webhookEventEntryFields).annotations({
  identifier: "WebhookEventEntry",
})

const webhookEventCategoryEntryFields = {
  category_name: Schema.String,
  display_name: Schema.String,
  description: Schema.String,
  event_count: Schema.Number,
  events: Schema.Array(WebhookEventEntry),
}

/** The Schema of {@link WebhookEventCategoryEntry}, named so that declarations refer to it instead of copying it. */
export interface WebhookEventCategoryEntrySchema extends Schema.Struct<typeof webhookEventCategoryEntryFields> {}
/** One category of `GET /api/v1/webhook_events`, with its events. */
export const WebhookEventCategoryEntry: WebhookEventCategoryEntrySchema = Schema.Struct(
  webhookEventCategoryEntryFields,
).annotations({ identifier: "WebhookEventCategory" })
export type WebhookEventCategoryEntry = Types.WebhookEventCategoryEntry

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

const storedEventFields = {
  id: EventId,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  /** The event name, e.g. "PaymentEvents::CompletedEvent". */
  event: Schema.String,
  resource_id: Schema.String,
  /** The webhook body, JSON text. */
  payload: Schema.String,
  created_at: Schema.String,
}

/** The Schema of {@link StoredEvent}, named so that declarations refer to it instead of copying it. */
export interface StoredEventSchema extends Schema.Struct<typeof storedEventFields> {}
/**
 * An outbox event as storage keeps it: the webhook body as JSON text, with its tenancy and the
 * name it is sent under, written in the same transaction as the change it reports. The storage
 * port's `EventRecord` is its type.
 */
export const StoredEvent: StoredEventSchema = Schema.Struct(storedEventFields)

/** How long the engine keeps an event (days): it never deletes one sooner. */
export const eventRetentionDays = 30

const eventListQueryFields = {
  type: Schema.optional(
    Schema.String.pipe(Schema.filter(isWebhookEventName)).annotations({
      description: "only events of this name, e.g. `PaymentEvents::CompletedEvent`",
      message: () => ({ message: "Unknown event type", override: true }),
    }),
  ),
  resource_id: Schema.optional(
    Schema.String.annotations({
      description: "only events about this resource (a payment's, batch's or entity's id, ...)",
      message: () => "must be a string",
    }),
  ),
  created_from: Schema.optional(
    EventIsoTimestamp.annotations({
      description: "only events created at or after this time (ISO 8601 UTC)",
      message: () => ({ message: "must be an ISO 8601 timestamp in UTC", override: true }),
    }),
  ),
  created_before: Schema.optional(
    EventIsoTimestamp.annotations({
      description: "only events created before this time (ISO 8601 UTC)",
      message: () => ({ message: "must be an ISO 8601 timestamp in UTC", override: true }),
    }),
  ),
}

/** The Schema of {@link EventListQuery}, named so that declarations refer to it instead of copying it. */
export interface EventListQuerySchema extends Schema.Struct<typeof eventListQueryFields> {}
/**
 * Filters of `GET /api/v1/events`, decoded from the raw query; a wrong one is `missing` on its
 * parameter.
 *
 * @example
 * Schema.decodeUnknownSync(EventListQuery)({ type: "PaymentEvents::CompletedEvent" })
 */
export const EventListQuery: EventListQuerySchema = Schema.Struct(eventListQueryFields)
export type EventListQuery = Types.EventListQuery

/** The storage filter of a decoded query: times rewritten as stored (`.5Z` is `.500Z`), so they compare as text. */
export const eventFilterOf = (query: EventListQuery): EventFilter => ({
  ...(query.type === undefined ? {} : { event: query.type }),
  ...(query.resource_id === undefined ? {} : { resourceId: query.resource_id }),
  ...(query.created_from === undefined ? {} : { createdFrom: new Date(query.created_from).toISOString() }),
  ...(query.created_before === undefined ? {} : { createdBefore: new Date(query.created_before).toISOString() }),
})

const eventFields = {
  id: EventId,
  type: Schema.String.annotations({ description: "The event's name, as webhooks send it under" }),
  company_id: CompanyId,
  resource_id: Schema.String.annotations({ description: "The resource the event is about" }),
  created_at: Schema.String.annotations({ description: "When it happened (ISO 8601 UTC)" }),
  payload: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description: "The body its webhook deliveries carry, byte for byte as JSON",
  }),
}

/** The Schema of {@link EventResource}, named so that declarations refer to it instead of copying it. */
export interface EventResourceSchema extends Schema.Struct<typeof eventFields> {}
/**
 * An event as `GET /api/v1/events` answers it: its id, name, company, resource and time, and the
 * payload its webhooks carry.
 */
export const EventResource: EventResourceSchema = Schema.Struct(eventFields).annotations({ identifier: "Event" })
export type EventResource = Types.EventResource

/** A stored event as the API returns it. */
export const toEventResource = (row: EventRecord): EventResource => ({
  id: row.id,
  type: row.event,
  company_id: row.company_id,
  resource_id: row.resource_id,
  created_at: row.created_at,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
})
