import type { CompanyId, EventId, WebhookDeliveryId, WebhookEndpointId, WorkspaceId } from "./ids.ts"

// The types of `model/webhook-delivery.ts`, written out (docs/decisions.md, "Public types").

/** States of a webhook delivery; the delivery machine decides the moves between them. */
export const deliveryStates = ["pending", "succeeded", "failed"] as const
/** A delivery's state. */
export type DeliveryState = (typeof deliveryStates)[number]

/** A delivery's state, as the model's Schema lists them. */
export type WebhookDeliveryStateValue = DeliveryState

/** One attempt of a delivery, as its log shows it. */
export interface WebhookDeliveryAttempt {
  readonly number: number
  readonly attempted_at: string
  /** The receiver's HTTP status, or null when it gave none. */
  readonly status_code: number | null
  readonly duration_ms: number
  /** Why the attempt failed without an answer, else null (a status other than 200 is its own reason). */
  readonly error:
    | "timeout"
    | "address_not_allowed"
    | "dns_failure"
    | "connection_refused"
    | "connection_reset"
    | "tls_failure"
    | "invalid_url"
    | "network_error"
    | "endpoint_disabled"
    | "secret_unavailable"
    | null
  /** The start of the receiver's answer (at most 1 KiB), or null. */
  readonly response_excerpt: string | null
}

/** A delivery of one event to one endpoint, as the delivery log returns it. */
export interface WebhookDelivery {
  readonly id: WebhookDeliveryId
  readonly endpoint_id: WebhookEndpointId
  readonly event_id: EventId
  readonly event_name: string
  readonly state: DeliveryState
  readonly attempt_count: number
  readonly last_status_code: number | null
  readonly next_attempt_at: string | null
  readonly created_at: string
  readonly updated_at: string
  /** The last attempts, oldest first (at most `maxLoggedAttempts`). */
  readonly attempts: ReadonlyArray<WebhookDeliveryAttempt>
}

/** A webhook delivery as storage keeps it. */
export interface WebhookDeliveryRecord {
  readonly id: WebhookDeliveryId
  readonly workspace_id: WorkspaceId
  readonly company_id: CompanyId
  readonly endpoint_id: WebhookEndpointId
  readonly event_id: EventId
  readonly event_name: string
  readonly payload: string
  readonly status: DeliveryState
  readonly machine_version: number
  readonly attempt_count: number
  readonly last_status_code: number | null
  readonly next_attempt_at: string | null
  readonly attempts: string
  readonly created_at: string
  readonly updated_at: string
  /** The delivery whose job is sending this one now (its lane's head), else null. */
  readonly lane_id: WebhookDeliveryId | null
}

/** The answer of `POST .../webhook_endpoints/{id}/test`: the attempt made during the request, and its delivery. */
export interface WebhookEndpointTest {
  /** `succeeded` when the endpoint answered 200, else `failed` */
  readonly outcome: "succeeded" | "failed"
  /** The receiver's HTTP status, or null when it gave none */
  readonly status_code: number | null
  readonly duration_ms: number
  /** Why the attempt got no answer (`timeout`, `connection_refused`, ...), else null */
  readonly error: WebhookDeliveryAttempt["error"]
  /** The start of the receiver's answer (at most 1 KiB), or null */
  readonly response_excerpt: string | null
  readonly attempted_at: string
  /** The test's delivery as it now is: succeeded, or pending with its retry on the usual schedule (a test is a delivery like any other) */
  readonly delivery: WebhookDelivery
}
