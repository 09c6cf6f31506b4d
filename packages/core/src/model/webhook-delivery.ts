import { Schema } from "effect"
import { Timestamp } from "./fields.ts"
import { CompanyId, EventId, WebhookDeliveryId, WebhookEndpointId, WorkspaceId } from "./ids.ts"
import type * as Types from "./types/webhook-delivery.ts"
import type { WebhookDeliveryRecord } from "./types/webhook-delivery.ts"
import { deliveryStates } from "./types/webhook-delivery.ts"

export * from "./types/webhook-delivery.ts"

/** States of a webhook delivery; `DeliveryState` and `WebhookDeliveryStateValue` are its type. */
export const WebhookDeliveryState = Schema.Literal(...deliveryStates)

/** Why an attempt got no answer (the transport's words), or `endpoint_disabled`. */
export const WebhookAttemptError = Schema.Literal(
  "timeout",
  "address_not_allowed",
  "dns_failure",
  "connection_refused",
  "connection_reset",
  "tls_failure",
  "invalid_url",
  "network_error",
  "endpoint_disabled",
  "secret_unavailable",
)

const webhookDeliveryAttemptFields = {
  number: Schema.Number,
  attempted_at: Timestamp,
  /** The receiver's HTTP status, or null when it gave none. */
  status_code: Schema.NullOr(Schema.Number),
  duration_ms: Schema.Number,
  /** Why the attempt failed without an answer, else null (a status other than 200 is its own reason). */
  error: Schema.NullOr(WebhookAttemptError),
  /** The start of the receiver's answer (at most 1 KiB), or null. */
  response_excerpt: Schema.NullOr(Schema.String),
}

/** The Schema of {@link WebhookDeliveryAttempt}, named so that declarations refer to it instead of copying it. */
export interface WebhookDeliveryAttemptSchema extends Schema.Struct<typeof webhookDeliveryAttemptFields> {}
/** One attempt of a delivery, as its log shows it. */
export const WebhookDeliveryAttempt: WebhookDeliveryAttemptSchema = Schema.Struct(
  webhookDeliveryAttemptFields,
).annotations({ identifier: "WebhookDeliveryAttempt" })
export type WebhookDeliveryAttempt = Types.WebhookDeliveryAttempt

const webhookDeliveryFields = {
  id: WebhookDeliveryId,
  endpoint_id: WebhookEndpointId,
  event_id: EventId,
  event_name: Schema.String,
  state: WebhookDeliveryState,
  attempt_count: Schema.Number,
  last_status_code: Schema.NullOr(Schema.Number),
  next_attempt_at: Schema.NullOr(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  /** The last attempts, oldest first (at most {@link maxLoggedAttempts}). */
  attempts: Schema.Array(WebhookDeliveryAttempt),
}

/** The Schema of {@link WebhookDelivery}, named so that declarations refer to it instead of copying it. */
export interface WebhookDeliverySchema extends Schema.Struct<typeof webhookDeliveryFields> {}
/** A delivery of one event to one endpoint, as the delivery log returns it. */
export const WebhookDelivery: WebhookDeliverySchema = Schema.Struct(webhookDeliveryFields).annotations({
  identifier: "WebhookDelivery",
})
export type WebhookDelivery = Types.WebhookDelivery

/** Attempts a delivery's log keeps: the schedule's five and a few resends. */
export const maxLoggedAttempts = 20

const storedWebhookDeliveryFields = {
  id: WebhookDeliveryId,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  endpoint_id: WebhookEndpointId,
  event_id: EventId,
  event_name: Schema.String,
  payload: Schema.String,
  status: WebhookDeliveryState,
  machine_version: Schema.Number,
  attempt_count: Schema.Number,
  last_status_code: Schema.NullOr(Schema.Number),
  next_attempt_at: Schema.NullOr(Timestamp),
  attempts: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
  /** The delivery whose job is sending this one now (its lane's head), else null. */
  lane_id: Schema.NullOr(WebhookDeliveryId),
}

/** The Schema of {@link StoredWebhookDelivery}, named so that declarations refer to it instead of copying it. */
export interface StoredWebhookDeliverySchema extends Schema.Struct<typeof storedWebhookDeliveryFields> {}
/**
 * A delivery as storage keeps it: the log's fields, its tenancy, the exact body sent on every
 * attempt (`payload`, the outbox event's text) and the attempts as JSON text.
 */
export const StoredWebhookDelivery: StoredWebhookDeliverySchema = Schema.Struct(storedWebhookDeliveryFields)

const decodeAttempts = Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(WebhookDeliveryAttempt)))

/** The attempts a stored delivery logged. */
export const storedAttempts = (row: Pick<WebhookDeliveryRecord, "attempts">) => decodeAttempts(row.attempts)

/** A stored delivery as the log returns it. */
export const toWebhookDelivery = (row: WebhookDeliveryRecord): WebhookDelivery => ({
  id: row.id,
  endpoint_id: row.endpoint_id,
  event_id: row.event_id,
  event_name: row.event_name,
  state: row.status,
  attempt_count: row.attempt_count,
  last_status_code: row.last_status_code,
  next_attempt_at: row.next_attempt_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
  attempts: storedAttempts(row),
})

const webhookEndpointTestFields = {
  outcome: Schema.Literal("succeeded", "failed").annotations({
    description: "`succeeded` when the endpoint answered 200, else `failed`",
  }),
  status_code: Schema.NullOr(Schema.Number).annotations({
    description: "The receiver's HTTP status, or null when it gave none",
  }),
  duration_ms: Schema.Number,
  error: Schema.NullOr(WebhookAttemptError).annotations({
    description: "Why the attempt got no answer (`timeout`, `connection_refused`, ...), else null",
  }),
  response_excerpt: Schema.NullOr(Schema.String).annotations({
    description: "The start of the receiver's answer (at most 1 KiB), or null",
  }),
  attempted_at: Timestamp,
  delivery: WebhookDelivery.annotations({
    description:
      "The test's delivery as it now is: succeeded, or pending with its retry on the usual schedule (a test is a delivery like any other)",
  }),
}

/** The Schema of {@link WebhookEndpointTest}, named so that declarations refer to it instead of copying it. */
export interface WebhookEndpointTestSchema extends Schema.Struct<typeof webhookEndpointTestFields> {}
/** The answer of `POST .../webhook_endpoints/{id}/test`: the attempt made during the request, and its delivery. */
export const WebhookEndpointTest: WebhookEndpointTestSchema = Schema.Struct(webhookEndpointTestFields).annotations({
  identifier: "WebhookEndpointTest",
})
export type WebhookEndpointTest = Types.WebhookEndpointTest
