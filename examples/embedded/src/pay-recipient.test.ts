import { expect, it } from "vitest"
import { payRecipient } from "./pay-recipient.ts"

it("pays a recipient through the engine alone: bank account, funding account, quote, payment, its job", async () => {
  const lines: unknown[][] = []
  const { quote, created, paid, report } = await payRecipient((...values) => lines.push(values))
  expect(quote).toMatchObject({ instructed_amount: "125.50", instructed_amount_currency: "USD" })
  expect(created).toMatchObject({ quote_id: quote.id, status: "pending", instructed_amount: "125.50" })
  expect(report.failed).toBe(0)
  expect(report.ran).toBeGreaterThanOrEqual(1)
  expect(paid).toMatchObject({ id: created.id, status: "completed", reason: "goods_purchased" })
  expect(lines.map((line) => line.slice(0, 1).concat(line.slice(2, 3)))).toEqual([
    ["quote", "125.50"],
    ["payment", "pending"],
    ["payment", "completed"],
  ])
})
