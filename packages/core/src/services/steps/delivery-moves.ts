import { Effect } from "effect"
import { type DeliveryEvent, deliveryMachine } from "../../machines/delivery-machine.ts"
import { type Decision, decide } from "../../machines/stored-machine.ts"
import { maxLoggedAttempts, storedAttempts, type WebhookDeliveryAttempt } from "../../model/webhook-delivery.ts"
import type { Clock } from "../../ports/clock.ts"
import type {
  Repositories,
  WebhookDeliveryChange,
  WebhookDeliveryRecord,
  WebhookDeliveryStateValue,
} from "../../ports/storage/index.ts"
import { type ActionCarriers, type ActionOf, applyDecision } from "./decision-executor.ts"
import { deliveryJobKey, deliveryQueue } from "./delivery-queue.ts"
import { enqueueJob } from "./job-queue.ts"
import type { ServicePorts } from "./service-ports.ts"
import type { Lifted } from "./transaction.ts"

/*
 * How a webhook delivery moves by its machine: what a move writes, the jobs it queues, and the
 * compare-and-set that writes it. The delivery job, a resend and a recovery move deliveries so.
 */

/** What a delivery's move writes, and the decision whose actions follow it (see `plannedMove`). */
export interface PlannedMove {
  readonly decision: Decision<WebhookDeliveryStateValue>
  readonly change: WebhookDeliveryChange
  readonly counted: boolean
}

/**
 * What moving a delivery by a machine event writes at `now`, logging `logged` (an attempt, or
 * why none was made) and counting it when `counted`, and the jobs the machine queues with it
 * (its next attempt). Undefined when the machine refuses the event.
 */
export const plannedMove = (
  now: Date,
  row: WebhookDeliveryRecord,
  event: DeliveryEvent,
  outcome: { readonly logged?: WebhookDeliveryAttempt; readonly counted: boolean },
): PlannedMove | undefined => {
  const attempts = row.attempt_count + (outcome.counted ? 1 : 0)
  const decision = decide(deliveryMachine, row, event, { attempts })
  if (decision === undefined) return undefined
  const next = decision.actions.find(
    (action): action is ActionOf<"enqueue"> => action.type === "enqueue" && action.job === "deliver_webhook",
  )
  const log = outcome.logged === undefined ? storedAttempts(row) : [...storedAttempts(row), outcome.logged]
  const change: WebhookDeliveryChange = {
    status: decision.status,
    attempt_count: attempts,
    last_status_code: outcome.logged === undefined ? row.last_status_code : outcome.logged.status_code,
    next_attempt_at: next === undefined ? null : new Date(now.getTime() + (next.delayMs ?? 0)).toISOString(),
    attempts: JSON.stringify(log.slice(-maxLoggedAttempts)),
    updated_at: now.toISOString(),
    lane_id: null,
  }
  return { decision, change, counted: outcome.counted }
}

/**
 * How a delivery carries out its machine's jobs: its next attempt, in its endpoint's queue. A
 * resend keeps the count, so a key (for a `counted` move only) would fold it into a retry already waiting.
 */
export const deliveryCarriers = (
  ports: Pick<ServicePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  moved: WebhookDeliveryRecord,
  counted: boolean,
): ActionCarriers => ({
  enqueue: (action) =>
    action.job === "deliver_webhook"
      ? enqueueJob(ports, tx, {
          kind: "deliver_webhook",
          payload: {
            delivery_id: moved.id,
            workspace_id: moved.workspace_id,
            attempt_count: moved.attempt_count,
            company_id: moved.company_id,
          },
          workspaceId: moved.workspace_id,
          queue: deliveryQueue(moved.endpoint_id),
          ...(counted ? { key: deliveryJobKey(moved.id, moved.attempt_count) } : {}),
          ...(action.delayMs === undefined ? {} : { delayMs: action.delayMs }),
        })
      : Effect.dieMessage(
          `the delivery machine asked for ${JSON.stringify(action)}, which deliveries do not carry out`,
        ),
})

/**
 * Moves a delivery as {@link plannedMove} plans it, with a compare-and-set on its status and
 * attempt count, and carries out its machine's actions. Undefined when another writer got there first.
 */
export const moveDelivery = (
  ports: Pick<ServicePorts, "ids" | "clock">,
  clock: Clock,
  tx: Lifted<Repositories>,
  row: WebhookDeliveryRecord,
  event: DeliveryEvent,
  outcome: { readonly logged?: WebhookDeliveryAttempt; readonly counted: boolean },
) =>
  Effect.gen(function* () {
    const plan = plannedMove(clock.now(), row, event, outcome)
    if (plan === undefined) return undefined
    return yield* applyDecision(deliveryMachine, plan.decision, {
      compareAndSet: () => tx.webhookDeliveries.compareAndSet(row.id, row, plan.change),
      carriers: (moved) => deliveryCarriers(ports, tx, moved, plan.counted),
    })
  })
