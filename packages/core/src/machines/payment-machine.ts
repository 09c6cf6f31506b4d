import { setup, transition } from "xstate"

/** Statuses of a payment instruction. */
export const paymentStatuses = ["pending", "processing", "completed", "failed", "cancelled"] as const
export type PaymentStatus = (typeof paymentStatuses)[number]

/** What can happen to a payment. */
export type PaymentEvent =
  | { readonly type: "start" }
  | { readonly type: "complete" }
  | { readonly type: "fail" }
  | { readonly type: "cancel" }

/** Stored with each payment, so a later machine can still read rows written by this one. */
export const paymentMachineVersion = 1

/**
 * The payment life cycle (DECISIONS): pending -> processing -> completed or failed;
 * pending -> cancelled. Used purely: the stored status is the truth, this only decides.
 */
export const paymentMachine = setup({ types: { events: {} as PaymentEvent } }).createMachine({
  id: "payment",
  initial: "pending",
  states: {
    pending: { on: { start: "processing", cancel: "cancelled" } },
    processing: { on: { complete: "completed", fail: "failed" } },
    completed: { type: "final" },
    failed: { type: "final" },
    cancelled: { type: "final" },
  },
})

/**
 * The status after `event`, or undefined when the machine does not allow it from `status`.
 *
 * @example
 * nextPaymentStatus("pending", { type: "cancel" }) // "cancelled"
 * nextPaymentStatus("completed", { type: "cancel" }) // undefined
 */
export const nextPaymentStatus = (status: PaymentStatus, event: PaymentEvent): PaymentStatus | undefined => {
  const snapshot = paymentMachine.resolveState({ value: status, context: {} })
  if (!snapshot.can(event)) return undefined
  const [next] = transition(paymentMachine, snapshot, event)
  return next.value as PaymentStatus
}
