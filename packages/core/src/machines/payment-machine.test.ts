import fc from "fast-check"
import { expect, it } from "vitest"
import { nextPaymentStatus, type PaymentEvent, type PaymentStatus, paymentStatuses } from "./payment-machine.ts"

const allowed: Record<string, PaymentStatus> = {
  "pending start": "processing",
  "pending cancel": "cancelled",
  "processing complete": "completed",
  "processing fail": "failed",
}

it("allows exactly the transitions of the payment life cycle", () => {
  const event = fc.constantFrom<PaymentEvent>(
    { type: "start" },
    { type: "complete" },
    { type: "fail" },
    { type: "cancel" },
  )
  fc.assert(
    fc.property(fc.constantFrom(...paymentStatuses), event, (status, e) => {
      expect(nextPaymentStatus(status, e)).toBe(allowed[`${status} ${e.type}`])
    }),
  )
})

it("never leaves a final status, whatever happens next", () => {
  const event = fc.constantFrom<PaymentEvent>(
    { type: "start" },
    { type: "complete" },
    { type: "fail" },
    { type: "cancel" },
  )
  fc.assert(
    fc.property(fc.array(event, { maxLength: 12 }), (events) => {
      let status: PaymentStatus = "pending"
      const seen: PaymentStatus[] = [status]
      for (const e of events) {
        status = nextPaymentStatus(status, e) ?? status
        seen.push(status)
      }
      const firstFinal = seen.findIndex((s) => s === "completed" || s === "failed" || s === "cancelled")
      if (firstFinal >= 0) expect(new Set(seen.slice(firstFinal)).size).toBe(1)
    }),
  )
})
