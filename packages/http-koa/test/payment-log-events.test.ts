import { openTestSqlite } from "@payments-engine/adapters/testing"
import type { PaymentLogEvent } from "@payments-engine/core"
import { afterAll, describe, expect, it } from "vitest"
import { paymentFlow } from "./support/payment-flow.ts"
import { startTestService } from "./support/test-service.ts"

const sqlite = openTestSqlite({ file: true })
afterAll(sqlite.close)

/*
 * What the metrics count payments by: the engine tells its job log of a payment's creation and of
 * its outcome, once each, after the write commits, with the time between them by its clock.
 */
describe("the engine's payment events", () => {
  it("tell a payment's creation and its completion once each, with the time to it by the workspace's clock", async () => {
    const told: Array<PaymentLogEvent> = []
    const service = await startTestService({
      storage: await sqlite.factory(),
      sandbox: true,
      jobLog: (event) => {
        if ("payment" in event) told.push(event)
      },
    })
    try {
      await paymentFlow(service)
    } finally {
      await service.close()
    }
    const [created, completed] = told
    expect(told.map((event) => [event.payment, event.batched])).toEqual([
      ["created", false],
      ["completed", false],
    ])
    expect(completed?.paymentId).toBe(created?.paymentId)
    expect(created?.durationMs).toBeUndefined()
    // The sandbox clock stands still while the payment runs: no time passes by it.
    expect(completed?.durationMs).toBe(0)
  })
})
