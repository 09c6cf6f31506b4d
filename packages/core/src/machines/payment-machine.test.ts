import fc from "fast-check"
import { expect, it } from "vitest"
import { type PaymentStatus, paymentStatuses } from "../model/payment.ts"
import { type PaymentEvent, paymentMachine } from "./payment-machine.ts"
import { begin, decide, UnknownMachineVersion } from "./stored-machine.ts"

const allowed: Record<string, PaymentStatus> = {
  "pending start": "processing",
  "pending cancel": "cancelled",
  "processing complete": "completed",
  "processing fail": "failed",
}

/** The event each final status reports, when the payment is not in a batch. */
const reported: Partial<Record<PaymentStatus, string>> = {
  completed: "PaymentEvents::CompletedEvent",
  failed: "PaymentEvents::FailedEvent",
  cancelled: "PaymentEvents::CancelledEvent",
}

/** What a batch payment's transitions imply instead of events: its lane's execution, its count in the batch. */
const batchedActions: Record<string, ReadonlyArray<unknown>> = {
  "pending start": [{ type: "enqueue", job: "execute_batch_payments" }],
  "pending cancel": [{ type: "emit", event: "PaymentEvents::CancelledEvent" }],
  "processing complete": [{ type: "count_in_batch", outcome: "succeeded" }],
  "processing fail": [{ type: "count_in_batch", outcome: "failed" }],
}

const event = fc.constantFrom<PaymentEvent>(
  { type: "start" },
  { type: "complete" },
  { type: "fail" },
  { type: "cancel" },
)
const row = (status: PaymentStatus) => ({ status, machine_version: 1 })

it("allows exactly the transitions of the payment life cycle, each emitting its event, or counting in its batch", () => {
  fc.assert(
    fc.property(fc.constantFrom(...paymentStatuses), event, fc.boolean(), (status, e, batched) => {
      const decision = decide(paymentMachine, row(status), e, { batched })
      const next = allowed[`${status} ${e.type}`]
      expect(decision?.status).toBe(next)
      if (decision === undefined || next === undefined) return
      const emitted = reported[next]
      if (batched) expect(decision.actions).toEqual(batchedActions[`${status} ${e.type}`] ?? [])
      else expect(decision.actions).toEqual(emitted === undefined ? [] : [{ type: "emit", event: emitted }])
    }),
  )
})

it("starts a payment pending, queueing its execution unless it is in a batch", () => {
  expect(begin(paymentMachine, { batched: false })).toEqual({
    status: "pending",
    actions: [{ type: "enqueue", job: "execute_payment" }],
  })
  expect(begin(paymentMachine, { batched: true })).toEqual({ status: "pending", actions: [] })
})

it("never leaves a final status, whatever happens next", () => {
  fc.assert(
    fc.property(fc.array(event, { maxLength: 12 }), (events) => {
      let status: PaymentStatus = "pending"
      const seen: PaymentStatus[] = [status]
      for (const e of events) {
        status = decide(paymentMachine, row(status), e, { batched: false })?.status ?? status
        seen.push(status)
      }
      const firstFinal = seen.findIndex((s) => s === "completed" || s === "failed" || s === "cancelled")
      if (firstFinal >= 0) expect(new Set(seen.slice(firstFinal)).size).toBe(1)
    }),
  )
})

it("reads the stored machine version, and refuses a row written by a version it does not know", () => {
  expect(() =>
    decide(paymentMachine, { status: "pending", machine_version: 2 }, { type: "start" }, { batched: false }),
  ).toThrow(UnknownMachineVersion)
})

it("reports a debit payment's start as debit initiated, outside a batch only; nothing else changes for it", () => {
  expect(decide(paymentMachine, row("pending"), { type: "start" }, { batched: false, debit: true })).toEqual({
    status: "processing",
    actions: [{ type: "emit", event: "PaymentEvents::DebitInitiatedEvent" }],
  })
  expect(decide(paymentMachine, row("pending"), { type: "start" }, { batched: true, debit: true })).toEqual({
    status: "processing",
    actions: [{ type: "enqueue", job: "execute_batch_payments" }],
  })
  expect(decide(paymentMachine, row("pending"), { type: "start" }, { batched: false, debit: false })).toEqual({
    status: "processing",
    actions: [],
  })
  fc.assert(
    fc.property(fc.constantFrom(...paymentStatuses), event, fc.boolean(), (status, e, batched) => {
      fc.pre(!(status === "pending" && e.type === "start"))
      expect(decide(paymentMachine, row(status), e, { batched, debit: true })).toEqual(
        decide(paymentMachine, row(status), e, { batched }),
      )
    }),
  )
})
