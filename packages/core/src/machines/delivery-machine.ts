import { setup } from "xstate"
import type { DeliveryState } from "../model/types/webhook-delivery.ts"
import { machineActions, type StoredMachine } from "./stored-machine.ts"

/**
 * What can happen to a delivery: an attempt answered 200 (`succeed`), an attempt failed (`fail`:
 * another status, or no answer), the receiver asked to stop (`abort`: `webhook-delivery:
 * abort-message`), its endpoint was deactivated or deleted (`disable`), or the user asked for it
 * again (`resend`).
 */
export type DeliveryEvent =
  | { readonly type: "succeed" }
  | { readonly type: "fail" }
  | { readonly type: "abort" }
  | { readonly type: "disable" }
  | { readonly type: "resend" }

/** What the delivery machine reads besides the state: attempts made so far, the last one included. */
export interface DeliveryContext {
  readonly attempts: number
}

/** Attempts of a delivery before it fails: the first and four retries (spec: 5 attempts). */
export const maxDeliveryAttempts = 5

/** Minutes from the first attempt to each retry (DECISIONS: attempts at 0, +1, +5, +25, +125). */
const retryAt = [1, 5, 25, 125] as const
const minute = 60 * 1000
/** Delay of the retry after attempt n (1-based, n < 5): the gap between the schedule's marks. */
export const retryDelayMs = (attempt: number) =>
  (retryAt[attempt - 1]! - (attempt === 1 ? 0 : retryAt[attempt - 2]!)) * minute

const retryAfter = (attempt: 1 | 2 | 3 | 4) =>
  ({
    guard: { type: "after", params: { attempt } },
    target: "pending",
    actions: { type: "enqueue", params: { job: "deliver_webhook", delayMs: retryDelayMs(attempt) } },
  }) as const

/**
 * The delivery life cycle, version 1: pending until an attempt answers 200 (succeeded) or the
 * attempts run out, the receiver aborts, or the endpoint stops receiving (failed). A failed
 * attempt with attempts left queues the next one on the schedule. `resend` sends any delivery
 * again now. Used purely through `decide`.
 */
const deliveryMachineV1 = setup({
  types: { events: {} as DeliveryEvent, context: {} as DeliveryContext, input: {} as DeliveryContext },
  actions: {
    enqueue: machineActions.enqueue,
  },
  guards: {
    after: ({ context }, params: { readonly attempt: number }) => context.attempts === params.attempt,
  },
}).createMachine({
  id: "webhook-delivery",
  initial: "pending",
  context: ({ input }) => input,
  states: {
    pending: {
      on: {
        succeed: "succeeded",
        fail: [retryAfter(1), retryAfter(2), retryAfter(3), retryAfter(4), { target: "failed" }],
        abort: "failed",
        disable: "failed",
        resend: { target: "pending", actions: { type: "enqueue", params: { job: "deliver_webhook" } } },
      },
    },
    succeeded: {
      on: { resend: { target: "pending", actions: { type: "enqueue", params: { job: "deliver_webhook" } } } },
    },
    failed: {
      on: { resend: { target: "pending", actions: { type: "enqueue", params: { job: "deliver_webhook" } } } },
    },
  },
})

/** Stored with each delivery, so a later machine can still read rows written by this one. */
export const deliveryMachineVersion = 1

/** The delivery machine of every stored version. */
export const deliveryMachine: StoredMachine<DeliveryState, DeliveryEvent, DeliveryContext> = {
  resource: "webhook delivery",
  version: deliveryMachineVersion,
  versions: { 1: deliveryMachineV1 },
}
