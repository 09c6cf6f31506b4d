import fc from "fast-check"
import { expect, it } from "vitest"
import { type BatchStatus, batchStatuses } from "../model/payment-batch.ts"
import { type BatchEvent, batchLifetimeMs, batchMachine, maxBatchPayments } from "./batch-machine.ts"
import { begin, decide } from "./stored-machine.ts"

const row = (status: BatchStatus) => ({ status, machine_version: 1 })
const event = fc.constantFrom<BatchEvent>({ type: "process" }, { type: "expire" }, { type: "finish" })
/** Counts as a batch can hold them: total up to one past the limit, outcomes up to the total. */
const counts = fc
  .integer({ min: 0, max: maxBatchPayments + 1 })
  .chain((total) =>
    fc
      .integer({ min: 0, max: total })
      .chain((succeeded) =>
        fc.integer({ min: 0, max: total - succeeded }).map((failed) => ({ total, succeeded, failed })),
      ),
  )

/** The spec's table of batch transitions, written out independently of the machine. */
const expected = (status: BatchStatus, e: BatchEvent, c: { total: number; succeeded: number; failed: number }) => {
  if (status === "building" && e.type === "process")
    return c.total >= 1 && c.total <= maxBatchPayments ? "processing" : undefined
  if (status === "building" && e.type === "expire") return "expired"
  if (status === "processing" && e.type === "finish" && c.succeeded + c.failed === c.total) {
    if (c.failed === 0) return "completed"
    if (c.succeeded === 0) return "failed"
    return "completed_with_failures"
  }
  return undefined
}

it("allows exactly the transitions of the spec's batch table, with their actions", () => {
  fc.assert(
    fc.property(fc.constantFrom(...batchStatuses), event, counts, (status, e, c) => {
      const decision = decide(batchMachine, row(status), e, c)
      const next = expected(status, e, c)
      expect(decision?.status).toBe(next)
      if (decision === undefined) return
      if (next === "processing") expect(decision.actions).toEqual([{ type: "enqueue", job: "process_batch" }])
      else if (next === "expired") expect(decision.actions).toEqual([])
      else expect(decision.actions).toEqual([{ type: "emit", event: "PaymentBatchCompletedEvent" }])
    }),
  )
})

it("starts a batch building, with its expiry queued for when it is seven days old", () => {
  expect(begin(batchMachine, { total: 0, succeeded: 0, failed: 0 })).toEqual({
    status: "building",
    actions: [{ type: "enqueue", job: "expire_batch", delayMs: batchLifetimeMs }],
  })
  expect(batchLifetimeMs).toBe(604_800_000)
})

it("finishes a batch only once every payment has an outcome", () => {
  expect(decide(batchMachine, row("processing"), { type: "finish" }, { total: 3, succeeded: 1, failed: 1 })).toBe(
    undefined,
  )
  expect(
    decide(batchMachine, row("processing"), { type: "finish" }, { total: 3, succeeded: 2, failed: 1 })?.status,
  ).toBe("completed_with_failures")
})
