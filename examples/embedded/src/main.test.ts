import { expect, it } from "vitest"
import { runExample } from "./main.ts"

it("creates a company, its entity and a recipient, and shows the refusal of a second entity", async () => {
  const lines: unknown[][] = []
  const result = await runExample((...values) => lines.push(values))
  expect(result.company).toMatchObject({ name: "Acme Inc", country: "US", default_currency: "USD" })
  expect(result.entity).toMatchObject({ name: "Acme Inc", country_alpha2: "US", company_id: result.company.id })
  expect(result.recipient).toMatchObject({ name: "Jane Supplier", email: "jane@example.com", bank_accounts: [] })
  expect(result.refused).toEqual({
    kind: "invalid",
    errors: [{ field: "base", message: "This company already has an existing entity" }],
  })
  expect(lines.map(([label]) => label)).toEqual(["created", "second entity refused"])
})
