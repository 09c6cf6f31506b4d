import { setup } from "xstate"
import type { WebhookEventNameOf } from "../model/types/events.ts"
import type { PaymentStatus } from "../model/types/payment.ts"
import { emitOnly, machineActions, type StoredMachine } from "./stored-machine.ts"

/** What can happen to a payment. */
export type PaymentEvent =
  | { readonly type: "start" }
  | { readonly type: "complete" }
  | { readonly type: "fail" }
  | { readonly type: "cancel" }

/**
 * What the payment machine reads besides the status: batched payments report through their
 * batch; a debit payment (its source is a `debit` profile, a linked funding account: its payment
 * order pulls the money) reports `PaymentEvents::DebitInitiatedEvent` when it is triggered.
 * `debit` is optional: a caller that does not say decides as for a payment that is not one.
 */
export interface PaymentContext {
  readonly batched: boolean
  readonly debit?: boolean
}

/**
 * The payment life cycle, version 1 (DECISIONS): pending -> processing -> completed or failed;
 * pending -> cancelled. A new payment outside a batch queues its execution; completed, failed and
 * cancelled emit their payment event; in a batch only cancelled does. A batch payment is started by its
 * batch (one of the batch's lanes claims it), which queues its lane's execution; its outcome is counted
 * in the batch instead of reported. Used purely through {@link decide}.
 */
const paymentMachineV1 = setup({
  types: { events: {} as PaymentEvent, context: {} as PaymentContext, input: {} as PaymentContext },
  actions: {
    emit: emitOnly<WebhookEventNameOf<"PaymentEvents">>(),
    enqueue: machineActions.enqueue,
    count_in_batch: machineActions.count_in_batch,
  },
  // A payment in a batch reports through its batch (DECISIONS) and runs when its batch does.
  guards: {
    batched: ({ context }) => context.batched,
    debit: ({ context }) => context.debit === true,
  },
}).createMachine({
  id: "payment",
  initial: "new",
  context: ({ input }) => input,
  states: {
    new: {
      always: [
        { guard: "batched", target: "pending" },
        { target: "pending", actions: { type: "enqueue", params: { job: "execute_payment" } } },
      ],
    },
    pending: {
      on: {
        start: [
          {
            guard: "batched",
            target: "processing",
            actions: { type: "enqueue", params: { job: "execute_batch_payments" } },
          },
          // Triggered: the spec's moment of the debit-initiated event (suppressed in a batch, above).
          {
            guard: "debit",
            target: "processing",
            actions: { type: "emit", params: { event: "PaymentEvents::DebitInitiatedEvent" } },
          },
          { target: "processing" },
        ],
        // The spec suppresses completed, failed and debit-initiated events in a batch; a
        // cancellation (a held payment taken out, or its batch expired) is reported.
        cancel: { target: "cancelled", actions: { type: "emit", params: { event: "PaymentEvents::CancelledEvent" } } },
      },
    },
    processing: {
      on: {
        complete: [
          {
            guard: "batched",
            target: "completed",
            actions: { type: "count_in_batch", params: { outcome: "succeeded" } },
          },
          { target: "completed", actions: { type: "emit", params: { event: "PaymentEvents::CompletedEvent" } } },
        ],
        fail: [
          { guard: "batched", target: "failed", actions: { type: "count_in_batch", params: { outcome: "failed" } } },
          { target: "failed", actions: { type: "emit", params: { event: "PaymentEvents::FailedEvent" } } },
        ],
      },
    },
    completed: { type: "final" },
    failed: { type: "final" },
    cancelled: { type: "final" },
  },
})

/** Stored with each payment, so a later machine can still read rows written by this one. */
export const paymentMachineVersion = 1

/** The payment machine of every stored version. */
export const paymentMachine: StoredMachine<PaymentStatus, PaymentEvent, PaymentContext> = {
  resource: "payment",
  version: paymentMachineVersion,
  versions: { 1: paymentMachineV1 },
}
