import type { CompanyId, WebhookDeliveryId, WebhookEndpointId, WebhookRecoveryId, WorkspaceId } from "./ids.ts"

// The types of `model/webhook-recovery.ts`, written out (docs/decisions.md, "Public types").

/**
 * Where a recovery is: `queued` until its job first runs, `running` while pages of failed
 * deliveries remain, `completed` once every one of its window has been queued again.
 */
export type WebhookRecoveryStatus = "queued" | "running" | "completed"

/** A recovery of an endpoint's failed deliveries, as `recover` answers it and its GET reads it. */
export interface WebhookRecovery {
  readonly id: WebhookRecoveryId
  readonly endpoint_id: WebhookEndpointId
  readonly status: WebhookRecoveryStatus
  /** Deliveries created at or after this time are recovered */
  readonly since: string
  /** ... and before this one (the request's time when it named none) */
  readonly until: string
  /** Failed deliveries of the window queued again so far, each for one more attempt now */
  readonly deliveries_queued: number
  readonly created_at: string
  readonly updated_at: string
  readonly completed_at: string | null
}

/**
 * A recovery as storage keeps it: the wire fields with its tenancy and how far its job has gone
 * (`cursor`).
 */
export interface WebhookRecoveryRecord extends WebhookRecovery {
  readonly workspace_id: WorkspaceId
  readonly company_id: CompanyId
  /** The last delivery (in id order) its job has handled; null before the first page. */
  readonly cursor: WebhookDeliveryId | null
}

/**
 * Body of `POST .../webhook_endpoints/{id}/recover`: the window of the deliveries to recover,
 * ISO 8601 in UTC; `until` is the request's time when left out.
 */
export interface WebhookRecoveryCreate {
  readonly since: string
  readonly until?: string
}

/** Body of a recovery, as an embedder writes it. */
export interface WebhookRecoveryCreateBody {
  readonly since: string
  readonly until?: string
}
