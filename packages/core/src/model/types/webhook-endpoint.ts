import type { CompanyId, WebhookEndpointId, WebhookSubscriptionId, WorkspaceId } from "./ids.ts"

// The types of `model/webhook-endpoint.ts`, written out (docs/decisions.md, "Public types").

/**
 * Why the engine deactivated an endpoint: `deliveries_failing`, every attempt to it failed for the
 * period of `rules/endpoint-disabling.ts` (5 days).
 */
export type WebhookEndpointDisabledReason = "deliveries_failing"

/** A webhook endpoint as the API returns it; its secret is never in it after creation. */
export interface WebhookEndpoint {
  readonly id: WebhookEndpointId
  /** A UUID of the endpoint, stable for its life. */
  readonly uuid: string
  readonly url: string
  readonly active: boolean
  readonly created_at: string
  readonly updated_at: string
  readonly subscribed_events_count: number
  readonly webhook_subscribed_events: ReadonlyArray<{
    readonly id: WebhookSubscriptionId
    readonly event_name: string
    readonly display_name: string
    readonly event_category: string
    readonly event_action: string
  }>
  /** Read-only. Failed delivery attempts (timeouts, network errors, answers other than 200) since the last 200. */
  readonly consecutive_failures: number
  /** Read-only. Set while the endpoint's circuit is open (after 5 failed attempts in a row): its deliveries wait until then without spending attempts, then one goes as a probe; a 200 closes it (null) */
  readonly circuit_open_until: string | null
  /** Read-only. When the failed attempts in a row began (the first failure since the last 200); null while the last attempt answered 200 */
  readonly failing_since: string | null
  /** Read-only. Why the engine deactivated the endpoint: `deliveries_failing`, every attempt failed for 5 days (with at least 5 in a row); null when it did not (an endpoint turned off by a user has none). Re-activating the endpoint clears it */
  readonly disabled_reason: WebhookEndpointDisabledReason | null
  /** Read-only. When the engine deactivated the endpoint; null with `disabled_reason` */
  readonly disabled_at: string | null
}

/** The answer of rotating an endpoint's secret: the new secret, shown this once. */
export interface WebhookSecretRotated {
  readonly id: WebhookEndpointId
  /** The new signing secret, returned only here, only once. */
  readonly webhook_secret: string
  /** Until then deliveries are signed with the previous secret too. */
  readonly previous_secret_expires_at: string
}

/** The answer of creating an endpoint: the endpoint and, this once, its signing secret. */
export interface WebhookEndpointCreated extends WebhookEndpoint {
  /** The signing secret (whsec_...), returned only here, only once. */
  readonly webhook_secret: string
}

/** One stored subscription: its id (stable while the endpoint keeps the event) and the event. */
export interface StoredWebhookSubscription {
  readonly id: WebhookSubscriptionId
  readonly event_name: string
}

/** A webhook endpoint as storage keeps it. */
export interface WebhookEndpointRecord {
  readonly id: WebhookEndpointId
  /** A UUID of the endpoint, stable for its life. */
  readonly uuid: string
  readonly url: string
  readonly active: boolean
  readonly created_at: string
  readonly updated_at: string
  /** Read-only. Failed delivery attempts (timeouts, network errors, answers other than 200) since the last 200. */
  readonly consecutive_failures: number
  /** Read-only. Set while the endpoint's circuit is open (after 5 failed attempts in a row): its deliveries wait until then without spending attempts, then one goes as a probe; a 200 closes it (null) */
  readonly circuit_open_until: string | null
  /** Read-only. When the failed attempts in a row began (the first failure since the last 200); null while the last attempt answered 200 */
  readonly failing_since: string | null
  /** Read-only. Why the engine deactivated the endpoint: `deliveries_failing`, every attempt failed for 5 days (with at least 5 in a row); null when it did not (an endpoint turned off by a user has none). Re-activating the endpoint clears it */
  readonly disabled_reason: WebhookEndpointDisabledReason | null
  /** Read-only. When the engine deactivated the endpoint; null with `disabled_reason` */
  readonly disabled_at: string | null
  readonly workspace_id: WorkspaceId
  readonly company_id: CompanyId
  readonly subscriptions: string
  readonly secret: string
  /** After `rotate_secret`, the secret before it, sealed too, signing beside the new one until `previous_secret_expires_at`. */
  readonly previous_secret: string | null
  readonly previous_secret_expires_at: string | null
  readonly deleted_at: string | null
}

/**
 * Body of `POST /api/v1/companies/{cid}/webhook_endpoints`. `url` is checked by the service
 * (its rule depends on sandbox mode); `company_id`, which the spec's sample body carries, may
 * be sent and must then name the path's company.
 */
export interface WebhookEndpointCreate {
  readonly url: string
  readonly active?: boolean
  readonly event_names: ReadonlyArray<string>
  readonly company_id?: string
}

/** Body of a webhook endpoint's create, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface WebhookEndpointCreateBody {
  readonly url: string
  readonly event_names: ReadonlyArray<string>
  readonly active?: boolean
  readonly company_id?: string
}

/** Body of `PATCH` of an endpoint: any of url, active and event_names (which replaces the list). */
export interface WebhookEndpointUpdate {
  readonly url?: string
  readonly active?: boolean
  readonly event_names?: ReadonlyArray<string>
}

/** Body of a webhook endpoint's update, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface WebhookEndpointUpdateBody {
  readonly active?: boolean
  readonly url?: string
  readonly event_names?: ReadonlyArray<string>
}

/** `active` of the endpoint list: `true` or `false`, as query text. */
export interface WebhookEndpointListQuery {
  /** Only active (true) or inactive (false) endpoints. */
  readonly active?: "true" | "false"
}

/** The prefix of signing secrets, as Stripe's, so a leaked one is recognised by secret scanners. */
export const webhookSecretPrefix = "whsec_"
