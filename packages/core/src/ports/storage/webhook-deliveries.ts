import type { WebhookDeliveryId, WebhookEndpointId, WorkspaceId } from "../../model/ids.ts"
import type { StoredWebhookDelivery, WebhookDeliveryState } from "../../model/webhook-delivery.ts"
import type { Slice, Window } from "./index.ts"

/** A stored webhook delivery: the model's `StoredWebhookDelivery` Schema. */
export type WebhookDeliveryRecord = typeof StoredWebhookDelivery.Type

export type WebhookDeliveryStateValue = typeof WebhookDeliveryState.Type

/** What recording an attempt (or a resend) writes. */
export type WebhookDeliveryChange = Pick<
  WebhookDeliveryRecord,
  "status" | "attempt_count" | "last_status_code" | "next_attempt_at" | "attempts" | "updated_at"
>

/**
 * Deliveries of outbox events to webhook endpoints, one per endpoint and event, each scoped by
 * its workspace (reads by id, the log) or read by id alone (the delivery job).
 */
export interface WebhookDeliveryRepository {
  /** Inserts the delivery unless its endpoint already has one for its event: whether it did. */
  insertIfNew(row: WebhookDeliveryRecord): Promise<boolean>
  /** For the delivery job, which holds only the id. */
  findById(id: WebhookDeliveryId): Promise<WebhookDeliveryRecord | undefined>
  find(workspaceId: WorkspaceId, id: WebhookDeliveryId): Promise<WebhookDeliveryRecord | undefined>
  /** Deliveries of the endpoint in the workspace, newest first (then by id, descending). */
  listByEndpoint(
    workspaceId: WorkspaceId,
    endpointId: WebhookEndpointId,
    window: Window,
  ): Promise<Slice<WebhookDeliveryRecord>>
  /**
   * Writes `change` if the delivery still has the status and attempt count it was read with (no
   * other attempt was recorded since): the delivery as it now is, else undefined.
   */
  compareAndSet(
    id: WebhookDeliveryId,
    from: Pick<WebhookDeliveryRecord, "status" | "attempt_count">,
    change: WebhookDeliveryChange,
  ): Promise<WebhookDeliveryRecord | undefined>
}
