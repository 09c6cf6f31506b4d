import fc from "fast-check"
import { expect, it } from "vitest"
import { type DeliveryEvent, deliveryMachine, maxDeliveryAttempts, retryDelayMs } from "./delivery-machine.ts"
import { begin, decide } from "./stored-machine.ts"

const row = (status: "pending" | "succeeded" | "failed") => ({ status, machine_version: 1 })
const minutes = (ms: number) => ms / 60_000

it("retries a failed attempt on the spec's schedule: attempts at 0, +1, +5, +25 and +125 minutes, then fails", () => {
  expect(begin(deliveryMachine, { attempts: 0 })).toEqual({ status: "pending", actions: [] })
  let at = 0
  const marks = [0]
  for (let attempts = 1; attempts < maxDeliveryAttempts; attempts++) {
    const decision = decide(deliveryMachine, row("pending"), { type: "fail" }, { attempts })
    expect(decision?.status).toBe("pending")
    const [action] = decision!.actions
    expect(action).toEqual({ type: "enqueue", job: "deliver_webhook", delayMs: retryDelayMs(attempts) })
    at += minutes(retryDelayMs(attempts))
    marks.push(at)
  }
  expect(marks).toEqual([0, 1, 5, 25, 125])
  expect(decide(deliveryMachine, row("pending"), { type: "fail" }, { attempts: maxDeliveryAttempts })).toEqual({
    status: "failed",
    actions: [],
  })
})

it("succeeds only from pending, fails at once on abort or a disabled endpoint, and resends from any state", () => {
  const event = fc.constantFrom<DeliveryEvent>(
    { type: "succeed" },
    { type: "fail" },
    { type: "abort" },
    { type: "disable" },
    { type: "resend" },
  )
  fc.assert(
    fc.property(
      fc.constantFrom("pending", "succeeded", "failed" as const),
      event,
      fc.integer({ min: 0, max: 9 }),
      (status, e, attempts) => {
        const decision = decide(deliveryMachine, row(status), e, { attempts })
        if (e.type === "resend") {
          expect(decision).toEqual({ status: "pending", actions: [{ type: "enqueue", job: "deliver_webhook" }] })
        } else if (status !== "pending") {
          expect(decision).toBeUndefined()
        } else if (e.type === "succeed") {
          expect(decision).toEqual({ status: "succeeded", actions: [] })
        } else if (e.type === "abort" || e.type === "disable") {
          expect(decision).toEqual({ status: "failed", actions: [] })
        } else {
          expect(decision?.status).toBe(attempts >= 1 && attempts < maxDeliveryAttempts ? "pending" : "failed")
        }
      },
    ),
  )
})
