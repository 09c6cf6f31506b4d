import type { WebhookDeliveryId, WebhookEndpointId } from "../../model/ids.ts"
import type { WebhookDeliveryRecord } from "../../ports/storage/index.ts"

/*
 * How delivery jobs are queued and keyed: by the outbox as an event fans out, and by the
 * delivery job as it retries, postpones and takes deliveries into its lane.
 */

/**
 * The queue of an endpoint's delivery jobs: one runs at a time, so an endpoint whose receiver
 * never answers holds one slot of the webhook lane, whatever its number of deliveries.
 */
export const deliveryQueue = (endpointId: WebhookEndpointId) => `deliver_webhook:${endpointId}`

/**
 * The key of a delivery's job for its attempt after `attemptCount` ones: a lane that takes the
 * delivery removes that job (`tx.jobs.removeUnstarted`).
 */
export const deliveryJobKey = (id: WebhookDeliveryId, attemptCount: number) => `deliver_webhook:${id}:${attemptCount}`

/**
 * The key of a delivery's job after its endpoint's circuit moved it to `until` without an
 * attempt: its own job (keyed by the same count) is the one running, so the key names the time.
 */
export const waitingJobKey = (id: WebhookDeliveryId, attemptCount: number, until: string) =>
  `${deliveryJobKey(id, attemptCount)}:${until}`

/** The keys of every job that may be waiting to send `row` as it is (see `removeUnstarted`). */
export const jobKeysOf = (row: WebhookDeliveryRecord) =>
  row.next_attempt_at === null
    ? [deliveryJobKey(row.id, row.attempt_count)]
    : [deliveryJobKey(row.id, row.attempt_count), waitingJobKey(row.id, row.attempt_count, row.next_attempt_at)]
