import type { WebhookDeliveryId, WebhookEndpointId, WorkspaceId } from "../../model/types/ids.ts"
import type { WebhookDeliveryRecord } from "../../model/types/webhook-delivery.ts"
import type { WebhookEndpointRecord } from "../../model/types/webhook-endpoint.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { WebhookDeliveryRecord, WebhookDeliveryStateValue } from "../../model/types/webhook-delivery.ts"

/** What recording an attempt (or a resend) writes. */
export type WebhookDeliveryChange = Pick<
  WebhookDeliveryRecord,
  "status" | "attempt_count" | "last_status_code" | "next_attempt_at" | "attempts" | "updated_at" | "lane_id"
>

/**
 * Deliveries of outbox events to webhook endpoints, one per endpoint and event, each scoped by
 * its workspace (reads by id, the log) or read by id alone (the delivery job).
 */
export interface WebhookDeliveryRepository {
  /** Inserts the delivery unless its endpoint already has one for its event: whether it did. */
  insertIfNew(row: WebhookDeliveryRecord): Awaitable<boolean>
  /** For the delivery job, which holds only the id. */
  findById(id: WebhookDeliveryId): Awaitable<WebhookDeliveryRecord | undefined>
  /**
   * The delivery a job is about to send in its lane, held for this transaction where the
   * database holds rows (so no other lane takes it meanwhile, and {@link listDue} passes it over),
   * with what the job decides on: its endpoint, and how many lanes its workspace has sending.
   * In one read where the database allows.
   */
  findForLane(id: WebhookDeliveryId): Awaitable<LaneStart | undefined>
  find(workspaceId: WorkspaceId, id: WebhookDeliveryId): Awaitable<WebhookDeliveryRecord | undefined>
  /** Deliveries of the endpoint in the workspace, newest first (then by id, descending). */
  listByEndpoint(
    workspaceId: WorkspaceId,
    endpointId: WebhookEndpointId,
    window: Window,
  ): Awaitable<Slice<WebhookDeliveryRecord>>
  /**
   * Up to `limit` pending deliveries of the endpoint due by `now` (`next_attempt_at` at or before
   * it) that no lane holds or lane `laneId` holds, soonest due first (then by id); `laneId` itself
   * left out, and so are rows another transaction holds where the database holds rows. Those it
   * answers it holds for this transaction.
   */
  listDue(
    endpointId: WebhookEndpointId,
    now: string,
    laneId: WebhookDeliveryId,
    limit: number,
  ): Awaitable<ReadonlyArray<WebhookDeliveryRecord>>
  /**
   * Up to `limit` failed deliveries of the endpoint created in `window` (at or after
   * `createdFrom`, before `createdBefore`), with ids after `afterId` (all when null), in id order:
   * a recovery's next page.
   */
  listFailed(
    endpointId: WebhookEndpointId,
    window: { readonly createdFrom: string; readonly createdBefore: string },
    afterId: WebhookDeliveryId | null,
    limit: number,
  ): Awaitable<ReadonlyArray<WebhookDeliveryRecord>>
  /**
   * Lane `laneId` takes its first delivery, the one of that id, if it is pending and no other
   * lane holds it; and then, of the first `reach` deliveries {@link listDue} gives for the lane
   * (`listDue(endpointId, now, laneId, reach)`), the first `size - 1` and every other one the lane
   * already holds (what it held when its process died): their `lane_id` becomes `laneId`. Takes
   * nothing when the first cannot be taken. Answers the deliveries it took as they now are, the
   * first one first, the rest soonest due first (then by id); in one statement where the
   * database allows.
   */
  takeLane(
    laneId: WebhookDeliveryId,
    endpointId: WebhookEndpointId,
    now: string,
    limits: { readonly size: number; readonly reach: number },
  ): Awaitable<ReadonlyArray<WebhookDeliveryRecord>>
  /**
   * Writes `change` if the delivery still has the status and attempt count it was read with (no
   * other attempt was recorded since): the delivery as it now is, else undefined.
   */
  compareAndSet(
    id: WebhookDeliveryId,
    from: Pick<WebhookDeliveryRecord, "status" | "attempt_count">,
    change: WebhookDeliveryChange,
  ): Awaitable<WebhookDeliveryRecord | undefined>
  /**
   * `compareAndSet` of several deliveries (a lane's attempts), in one statement where the
   * database allows: the deliveries written, as they now are, in no set order.
   */
  compareAndSetMany(changes: ReadonlyArray<WebhookDeliveryMove>): Awaitable<ReadonlyArray<WebhookDeliveryRecord>>
}

/** What {@link WebhookDeliveryRepository.findForLane} reads. */
export interface LaneStart {
  readonly delivery: WebhookDeliveryRecord
  /** Its endpoint, as `webhookEndpoints.find` gives it: undefined once deleted. */
  readonly endpoint: WebhookEndpointRecord | undefined
  /**
   * How many lanes are sending its workspace's deliveries now: the distinct `lane_id`s of the
   * workspace's pending deliveries (a lane that died with its process counts until its job runs
   * again; the delivery's own lane, if it heads one, counts too).
   */
  readonly workspaceLanes: number
}

/** One write of {@link WebhookDeliveryRepository.compareAndSetMany}. */
export interface WebhookDeliveryMove {
  readonly id: WebhookDeliveryId
  readonly from: Pick<WebhookDeliveryRecord, "status" | "attempt_count">
  readonly change: WebhookDeliveryChange
}
