import { Schema } from "effect"
import { EventIsoTimestamp } from "./events.ts"
import { required, Timestamp } from "./fields.ts"
import { CompanyId, WebhookDeliveryId, WebhookEndpointId, WebhookRecoveryId, WorkspaceId } from "./ids.ts"
import type * as Types from "./types/webhook-recovery.ts"
import type { WebhookRecoveryRecord } from "./types/webhook-recovery.ts"

/** The messages of recoveries, ours: the spec has none. */
export const webhookRecoveryMessages = {
  notFound: "Webhook recovery not found",
  sinceRequired: "Since is required",
  timestamp: "must be an ISO 8601 timestamp in UTC",
  sinceTooOld: (days: number) => `must be at most ${days} days ago`,
  inFuture: "must not be in the future",
  untilBeforeSince: "must be after since",
  endpointInactive: "Endpoint is inactive: activate it before recovering its deliveries",
} as const

/**
 * Where a recovery is: `queued` until its job first runs, `running` while pages of failed
 * deliveries remain, `completed` once every one of its window has been queued again.
 */
export const WebhookRecoveryStatus = Schema.Literal("queued", "running", "completed")
export type WebhookRecoveryStatus = Types.WebhookRecoveryStatus

const webhookRecoveryFields = {
  id: WebhookRecoveryId,
  endpoint_id: WebhookEndpointId,
  status: WebhookRecoveryStatus,
  since: Timestamp.annotations({ description: "Deliveries created at or after this time are recovered" }),
  until: Timestamp.annotations({ description: "... and before this one (the request's time when it named none)" }),
  deliveries_queued: Schema.Number.annotations({
    description: "Failed deliveries of the window queued again so far, each for one more attempt now",
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
  completed_at: Schema.NullOr(Timestamp),
}

/** The Schema of {@link WebhookRecovery}, named so that declarations refer to it instead of copying it. */
export interface WebhookRecoverySchema extends Schema.Struct<typeof webhookRecoveryFields> {}
/** A recovery of an endpoint's failed deliveries, as `recover` answers it and its GET reads it. */
export const WebhookRecovery: WebhookRecoverySchema = Schema.Struct(webhookRecoveryFields).annotations({
  identifier: "WebhookRecovery",
})
export type WebhookRecovery = Types.WebhookRecovery

const storedWebhookRecoveryFields = {
  ...webhookRecoveryFields,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  /** The last delivery (in id order) its job has handled; null before the first page. */
  cursor: Schema.NullOr(WebhookDeliveryId),
}

/** The Schema of {@link StoredWebhookRecovery}, named so that declarations refer to it instead of copying it. */
export interface StoredWebhookRecoverySchema extends Schema.Struct<typeof storedWebhookRecoveryFields> {}
/**
 * A recovery as storage keeps it: the wire fields with its tenancy and how far its job has gone
 * (`cursor`). The storage port's `WebhookRecoveryRecord` is its type.
 */
export const StoredWebhookRecovery: StoredWebhookRecoverySchema = Schema.Struct(storedWebhookRecoveryFields)

const RecoveryTime = EventIsoTimestamp.annotations({
  message: () => ({ message: webhookRecoveryMessages.timestamp, override: true }),
})

const webhookRecoveryCreateFields = {
  since: required(RecoveryTime, webhookRecoveryMessages.sinceRequired),
  until: Schema.optional(RecoveryTime),
}

/** The Schema of {@link WebhookRecoveryCreate}, named so that declarations refer to it instead of copying it. */
export interface WebhookRecoveryCreateSchema extends Schema.Struct<typeof webhookRecoveryCreateFields> {}
/**
 * Body of `POST .../webhook_endpoints/{id}/recover`: the window of the deliveries to recover,
 * ISO 8601 in UTC; `until` is the request's time when left out. The service checks the window
 * against the workspace's clock.
 */
export const WebhookRecoveryCreate: WebhookRecoveryCreateSchema = Schema.Struct(
  webhookRecoveryCreateFields,
).annotations({ identifier: "WebhookRecoveryCreate" })
export type WebhookRecoveryCreate = Types.WebhookRecoveryCreate
/** Body of a recovery, as an embedder writes it. */
export type WebhookRecoveryCreateBody = Types.WebhookRecoveryCreateBody

/** A stored recovery as the API returns it. */
export const toWebhookRecovery = (row: WebhookRecoveryRecord): WebhookRecovery => ({
  id: row.id,
  endpoint_id: row.endpoint_id,
  status: row.status,
  since: row.since,
  until: row.until,
  deliveries_queued: row.deliveries_queued,
  created_at: row.created_at,
  updated_at: row.updated_at,
  completed_at: row.completed_at,
})
