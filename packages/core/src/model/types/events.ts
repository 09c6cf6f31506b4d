import type { CompanyId, EventId, WorkspaceId } from "./ids.ts"

// The types of `model/events.ts`, written out (docs/decisions.md, "Public types").

/**
 * The event names of each category of the webhook catalogue (`webhookEventCatalogue` of the
 * `/effect` entry, which has each event's Schema), in the spec's order.
 */
export interface WebhookEventNames {
  readonly PaymentEvents:
    | "PaymentEvents::CompletedEvent"
    | "PaymentEvents::FailedEvent"
    | "PaymentEvents::CancelledEvent"
    | "PaymentEvents::DebitInitiatedEvent"
  readonly BankAccountEvents:
    | "BankAccountEvents::CreatedEvent"
    | "BankAccountEvents::UpdatedEvent"
    | "BankAccountEvents::DeletedEvent"
  readonly PaymentProfileEvents: "PaymentProfileEvents::CreatedEvent" | "PaymentProfileEvents::FailedEvent"
  readonly PaymentBatchEvents: "PaymentBatchCompletedEvent"
  readonly EntityEvents: "entity.created" | "entity.updated" | "entity.deleted"
  readonly WebhookEndpointEvents: "WebhookEndpointEvents::DisabledEvent" | "WebhookEndpointEvents::TestEvent"
}

/** A category of the webhook catalogue, e.g. `"PaymentEvents"`. */
export type WebhookEventCategory = keyof WebhookEventNames

/** The event names of one category, e.g. `WebhookEventNameOf<"BankAccountEvents">`. */
export type WebhookEventNameOf<C extends WebhookEventCategory> = WebhookEventNames[C]

/** Every webhook event name: what an endpoint may subscribe to. */
export type WebhookEventName = WebhookEventNames[WebhookEventCategory]

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

/** One category of `GET /api/v1/webhook_events`, with its events. */
export interface WebhookEventCategoryEntry {
  readonly category_name: string
  readonly display_name: string
  readonly description: string
  readonly event_count: number
  readonly events: ReadonlyArray<{
    readonly event_name: string
    readonly display_name: string
    readonly action: string
    readonly description: string
  }>
}

/** An outbox event as storage keeps it. */
export interface EventRecord {
  readonly id: EventId
  readonly workspace_id: WorkspaceId
  readonly company_id: CompanyId
  /** The event name, e.g. "PaymentEvents::CompletedEvent". */
  readonly event: string
  readonly resource_id: string
  /** The webhook body, JSON text. */
  readonly payload: string
  readonly created_at: string
}

/**
 * Filters of `GET /api/v1/events`, decoded from the raw query; a wrong one is `missing` on its
 * parameter.
 */
export interface EventListQuery {
  /** Only events of this name, e.g. `PaymentEvents::CompletedEvent`. */
  readonly type?: WebhookEventName
  /** Only events about this resource (a payment's, batch's or entity's id, ...) */
  readonly resource_id?: string
  /** Only events created at or after this time (ISO 8601 UTC) */
  readonly created_from?: string
  /** Only events created before this time (ISO 8601 UTC) */
  readonly created_before?: string
}

/** What storage filters a workspace's events by; times as `toISOString` writes them. */
export interface EventFilter {
  readonly event?: string
  readonly resourceId?: string
  /** Created at or after. */
  readonly createdFrom?: string
  /** Created before. */
  readonly createdBefore?: string
}

/**
 * An event as `GET /api/v1/events` answers it: its id, name, company, resource and time, and the
 * payload its webhooks carry.
 */
export interface EventResource {
  readonly id: EventId
  /** The event's name, as webhooks send it under. */
  readonly type: string
  readonly company_id: CompanyId
  /** The resource the event is about. */
  readonly resource_id: string
  /** When it happened (ISO 8601 UTC) */
  readonly created_at: string
  /** The body its webhook deliveries carry, byte for byte as JSON. */
  readonly payload: {
    readonly [key: string]: unknown
  }
}
