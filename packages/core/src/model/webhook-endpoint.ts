import { Schema, Struct } from "effect"
import {
  isWebhookEventName,
  type WebhookEventName,
  webhookEventCategoryOf,
  webhookEventDescriptions,
  webhookEventNames,
} from "./events.ts"
import { required, Text, Timestamp } from "./fields.ts"
import { CompanyId, WebhookEndpointId, WebhookSubscriptionId, WorkspaceId } from "./ids.ts"
import type * as Types from "./types/webhook-endpoint.ts"
import type { WebhookEndpointRecord } from "./types/webhook-endpoint.ts"

export * from "./types/webhook-endpoint.ts"

/** The messages of webhook endpoints, ours where the spec has none. */
export const webhookEndpointMessages = {
  notFound: "Webhook endpoint not found",
  eventNamesRequired: "Event names are required",
  eventNamesEmpty: "must name at least one event",
  eventNamesTooMany: "must name at most 100 events",
  unknownEvents: (names: ReadonlyArray<string>) => `contains unknown events: ${names.join(", ")}`,
  companyMismatch: "must be the company of the path",
  active: "must be true or false",
  privateAddress: "URL must not resolve to a loopback, private, link-local or metadata address",
  unresolvable: "URL host could not be resolved (no DNS address found for it)",
} as const

/**
 * Why the engine deactivated an endpoint: `deliveries_failing`, every attempt to it failed for the
 * period of `rules/endpoint-disabling.ts` (5 days).
 */
export const WebhookEndpointDisabledReason = Schema.Literal("deliveries_failing").annotations({
  identifier: "WebhookEndpointDisabledReason",
})
export type WebhookEndpointDisabledReason = typeof WebhookEndpointDisabledReason.Type

const webhookSubscribedEventFields = {
  id: WebhookSubscriptionId,
  event_name: Schema.String,
  display_name: Schema.String,
  event_category: Schema.String,
  event_action: Schema.String,
}

/** The Schema of {@link WebhookSubscribedEvent}, named so that declarations refer to it instead of copying it. */
export interface WebhookSubscribedEventSchema extends Schema.Struct<typeof webhookSubscribedEventFields> {}
/** One event an endpoint subscribes to, described from the catalogue. */
export const WebhookSubscribedEvent: WebhookSubscribedEventSchema = Schema.Struct(
  webhookSubscribedEventFields,
).annotations({ identifier: "WebhookSubscribedEvent" })

const webhookEndpointFields = {
  id: WebhookEndpointId,
  uuid: Schema.String.annotations({ description: "A UUID of the endpoint, stable for its life" }),
  url: Schema.String,
  active: Schema.Boolean,
  created_at: Timestamp,
  updated_at: Timestamp,
  subscribed_events_count: Schema.Number,
  webhook_subscribed_events: Schema.Array(WebhookSubscribedEvent),
  consecutive_failures: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description:
      "Read-only. Failed delivery attempts (timeouts, network errors, answers other than 200) since the last 200",
  }),
  circuit_open_until: Schema.NullOr(Timestamp).annotations({
    description:
      "Read-only. Set while the endpoint's circuit is open (after 5 failed attempts in a row): its deliveries wait until then without spending attempts, then one goes as a probe; a 200 closes it (null)",
  }),
  failing_since: Schema.NullOr(Timestamp).annotations({
    description:
      "Read-only. When the failed attempts in a row began (the first failure since the last 200); null while the last attempt answered 200",
  }),
  disabled_reason: Schema.NullOr(WebhookEndpointDisabledReason).annotations({
    description:
      "Read-only. Why the engine deactivated the endpoint: `deliveries_failing`, every attempt failed for 5 days (with at least 5 in a row); null when it did not (an endpoint turned off by a user has none). Re-activating the endpoint clears it",
  }),
  disabled_at: Schema.NullOr(Timestamp).annotations({
    description: "Read-only. When the engine deactivated the endpoint; null with `disabled_reason`",
  }),
}

/** The Schema of {@link WebhookEndpoint}, named so that declarations refer to it instead of copying it. */
export interface WebhookEndpointSchema extends Schema.Struct<typeof webhookEndpointFields> {}
/** A webhook endpoint as the API returns it; its secret is never in it after creation. */
export const WebhookEndpoint: WebhookEndpointSchema = Schema.Struct(webhookEndpointFields).annotations({
  identifier: "WebhookEndpoint",
})
export type WebhookEndpoint = Types.WebhookEndpoint

/** How long a rotated-out secret still signs deliveries beside the new one. */
export const previousSecretLifetimeMs = 24 * 60 * 60 * 1000

const webhookSecretRotatedFields = {
  id: WebhookEndpointId,
  webhook_secret: Schema.String.annotations({ description: "The new signing secret, returned only here, only once" }),
  previous_secret_expires_at: Timestamp.annotations({
    description: "Until then deliveries are signed with the previous secret too",
  }),
}

/** The Schema of {@link WebhookSecretRotated}, named so that declarations refer to it instead of copying it. */
export interface WebhookSecretRotatedSchema extends Schema.Struct<typeof webhookSecretRotatedFields> {}
/** The answer of rotating an endpoint's secret: the new secret, shown this once. */
export const WebhookSecretRotated: WebhookSecretRotatedSchema = Schema.Struct(webhookSecretRotatedFields).annotations({
  identifier: "WebhookSecretRotated",
})
export type WebhookSecretRotated = Types.WebhookSecretRotated

const webhookEndpointCreatedFields = {
  ...WebhookEndpoint.fields,
  webhook_secret: Schema.String.annotations({
    description: "The signing secret (whsec_...), returned only here, only once",
  }),
}

/** The Schema of {@link WebhookEndpointCreated}, named so that declarations refer to it instead of copying it. */
export interface WebhookEndpointCreatedSchema extends Schema.Struct<typeof webhookEndpointCreatedFields> {}
/** The answer of creating an endpoint: the endpoint and, this once, its signing secret. */
export const WebhookEndpointCreated: WebhookEndpointCreatedSchema = Schema.Struct(
  webhookEndpointCreatedFields,
).annotations({ identifier: "WebhookEndpointCreated" })
export type WebhookEndpointCreated = Types.WebhookEndpointCreated

const storedWebhookSubscriptionFields = { id: WebhookSubscriptionId, event_name: Schema.String }

/** The Schema of {@link StoredWebhookSubscription}, named so that declarations refer to it instead of copying it. */
export interface StoredWebhookSubscriptionSchema extends Schema.Struct<typeof storedWebhookSubscriptionFields> {}
/** One stored subscription: its id (stable while the endpoint keeps the event) and the event. */
export const StoredWebhookSubscription: StoredWebhookSubscriptionSchema = Schema.Struct(storedWebhookSubscriptionFields)
export type StoredWebhookSubscription = Types.StoredWebhookSubscription

const storedWebhookEndpointFields = {
  ...Struct.omit(WebhookEndpoint.fields, "subscribed_events_count", "webhook_subscribed_events"),
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  subscriptions: Schema.String,
  secret: Schema.String,
  /** After `rotate_secret`, the secret before it, sealed too, signing beside the new one until `previous_secret_expires_at`. */
  previous_secret: Schema.NullOr(Schema.String),
  previous_secret_expires_at: Schema.NullOr(Timestamp),
  deleted_at: Schema.NullOr(Timestamp),
}

/** The Schema of {@link StoredWebhookEndpoint}, named so that declarations refer to it instead of copying it. */
export interface StoredWebhookEndpointSchema extends Schema.Struct<typeof storedWebhookEndpointFields> {}
/**
 * An endpoint as storage keeps it: the wire fields but the subscription list, with its
 * tenancy, its subscriptions as JSON text (`[{ id, event_name }]`, in catalogue order), its
 * signing secret sealed (`rules/secret-box.ts`: AES-256-GCM under a key derived from the server
 * secret, never the secret itself) and its soft-delete time. The storage port's
 * `WebhookEndpointRecord` is its type.
 */
export const StoredWebhookEndpoint: StoredWebhookEndpointSchema = Schema.Struct(storedWebhookEndpointFields)

const EventNames = Schema.Array(Text)
  .annotations({ message: () => "must be an array of event names" })
  .pipe(
    Schema.filter((names) => names.length >= 1, { message: () => webhookEndpointMessages.eventNamesEmpty }),
    Schema.filter((names) => names.length <= 100, { message: () => webhookEndpointMessages.eventNamesTooMany }),
    Schema.filter(
      (names) => {
        const unknown = [...new Set(names.filter((name) => !isWebhookEventName(name)))]
        return unknown.length === 0 || webhookEndpointMessages.unknownEvents(unknown)
      },
      { description: `names of GET /api/v1/webhook_events: ${webhookEventNames.join(", ")}` },
    ),
  )

const Active = Schema.Boolean.annotations({ message: () => webhookEndpointMessages.active })

const webhookEndpointCreateFields = {
  url: required(Text, "URL is required"),
  active: Schema.optional(Active),
  event_names: required(EventNames, webhookEndpointMessages.eventNamesRequired),
  company_id: Schema.optional(Text),
}

/** The Schema of {@link WebhookEndpointCreate}, named so that declarations refer to it instead of copying it. */
export interface WebhookEndpointCreateSchema extends Schema.Struct<typeof webhookEndpointCreateFields> {}
/**
 * Body of `POST /api/v1/companies/{cid}/webhook_endpoints`. `url` is checked by the service
 * (its rule depends on sandbox mode); `company_id`, which the spec's sample body carries, may
 * be sent and must then name the path's company.
 */
export const WebhookEndpointCreate: WebhookEndpointCreateSchema = Schema.Struct(
  webhookEndpointCreateFields,
).annotations({ identifier: "WebhookEndpointCreate" })
export type WebhookEndpointCreate = Types.WebhookEndpointCreate

const webhookEndpointUpdateFields = {
  url: Schema.optional(Text),
  active: Schema.optional(Active),
  event_names: Schema.optional(EventNames),
}

/** The Schema of {@link WebhookEndpointUpdate}, named so that declarations refer to it instead of copying it. */
export interface WebhookEndpointUpdateSchema extends Schema.Struct<typeof webhookEndpointUpdateFields> {}
/** Body of `PATCH` of an endpoint: any of url, active and event_names (which replaces the list). */
export const WebhookEndpointUpdate: WebhookEndpointUpdateSchema = Schema.Struct(
  webhookEndpointUpdateFields,
).annotations({ identifier: "WebhookEndpointUpdate" })
export type WebhookEndpointUpdate = Types.WebhookEndpointUpdate

const webhookEndpointListQueryFields = {
  active: Schema.optional(
    Schema.Literal("true", "false").annotations({
      description: "only active (true) or inactive (false) endpoints",
      message: () => ({ message: "must be true or false", override: true }),
    }),
  ),
}

/** The Schema of {@link WebhookEndpointListQuery}, named so that declarations refer to it instead of copying it. */
export interface WebhookEndpointListQuerySchema extends Schema.Struct<typeof webhookEndpointListQueryFields> {}
/** `active` of the endpoint list: `true` or `false`, as query text. */
export const WebhookEndpointListQuery: WebhookEndpointListQuerySchema = Schema.Struct(webhookEndpointListQueryFields)
export type WebhookEndpointListQuery = Types.WebhookEndpointListQuery

/**
 * The subscriptions of `names` (deduplicated, in catalogue order): the ids of events the
 * endpoint already had are kept, new ones get `newId()`.
 */
export const subscriptionsFor = (
  names: ReadonlyArray<WebhookEventName>,
  kept: ReadonlyArray<StoredWebhookSubscription>,
  newId: () => WebhookSubscriptionId,
): ReadonlyArray<StoredWebhookSubscription> => {
  const wanted = new Set<string>(names)
  return webhookEventNames
    .filter((name) => wanted.has(name))
    .map((name) => kept.find((s) => s.event_name === name) ?? { id: newId(), event_name: name })
}

/** The subscriptions of a stored endpoint. */
export const storedSubscriptions = (row: Pick<WebhookEndpointRecord, "subscriptions">) =>
  Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(StoredWebhookSubscription)))(row.subscriptions)

/** A stored endpoint as the API returns it, its subscriptions described from the catalogue. */
export const toWebhookEndpoint = (row: WebhookEndpointRecord): WebhookEndpoint => {
  const subscribed = storedSubscriptions(row).flatMap((s) => {
    // An event the catalogue no longer has is not shown (no such event is ever sent).
    if (!isWebhookEventName(s.event_name)) return []
    const described = webhookEventDescriptions.events[s.event_name]
    return [
      {
        id: s.id,
        event_name: s.event_name,
        display_name: described.display_name,
        event_category: webhookEventCategoryOf(s.event_name),
        event_action: described.action,
      },
    ]
  })
  return {
    id: row.id,
    uuid: row.uuid,
    url: row.url,
    active: row.active,
    created_at: row.created_at,
    updated_at: row.updated_at,
    subscribed_events_count: subscribed.length,
    webhook_subscribed_events: subscribed,
    consecutive_failures: row.consecutive_failures,
    circuit_open_until: row.circuit_open_until,
    failing_since: row.failing_since,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
  }
}
