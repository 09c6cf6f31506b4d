import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, describe, it } from "vitest"
import { paymentFlow } from "./support/payment-flow.ts"
import { startTestService } from "./support/test-service.ts"

const sqlite = openTestSqlite({ file: true })
afterAll(sqlite.close)

describe("paying a recipient on SQLite", () => {
  it("follows the client's flow from payment methods to a completed payment", async () => {
    const service = await startTestService({ storage: await sqlite.factory(), sandbox: true })
    try {
      await paymentFlow(service)
    } finally {
      await service.close()
    }
  })
})
