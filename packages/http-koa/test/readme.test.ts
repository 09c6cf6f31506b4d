import { readFileSync } from "node:fs"
import { join } from "node:path"
import { sandboxExamples } from "@payments-engine/adapters"
import { describe, expect, it } from "vitest"
import { repositoryRoot } from "./support/child-process.ts"
import { exampleAccountsTable, feeScheduleTable, fxSentence, testBanksTable } from "./support/readme-tables.ts"

/** The README's money section says what the sandbox does: its tables are generated from the sandbox's data. */
const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8")
const section = (title: string) => {
  const start = readme.indexOf(title)
  expect(start, title).toBeGreaterThanOrEqual(0)
  const next = readme.indexOf("\n## ", start + title.length)
  return readme.slice(start, next === -1 ? undefined : next)
}

describe("README", () => {
  it("keeps its two set-up commands", () => {
    expect(readme).toContain(
      "npm install && npm start     # serves the API on http://localhost:3000 (SQLite in ./data, sandbox mode)",
    )
    expect(readme).toContain(
      "npm test                     # every test; Postgres tests use $DATABASE_URL, or an embedded PGlite without it",
    )
  })

  it("pays a recipient after the first walkthrough, with the US ACH example", () => {
    expect(readme.indexOf("## Paying a recipient")).toBeGreaterThan(readme.indexOf("## A first walkthrough"))
    const paying = section("## Paying a recipient")
    const body = /<<JSON \\\n.*?\n(\{\n[\s\S]*?\n\})\nJSON\n/.exec(paying)?.[1]
    expect(body).toBeDefined()
    const sent = JSON.parse((body as string).replace("$ENTITY", "ent_x"))
    expect(sent).toEqual({ entity_id: "ent_x", beneficiary_details: sandboxExamples.US_ACH })
    for (const path of [
      "/api/v1/payment_methods",
      "/api/v1/bank_account_requirements",
      "/bank_accounts",
      "/api/v1/sandbox/entities/$ENTITY/funding_accounts",
      "/quotes",
      "/payments",
      "/api/v1/sandbox/clock/advance",
    ]) {
      expect(paying).toContain(path)
    }
  })

  it("pays across currencies after enabling the multi-currency account, with the DE_SWIFT example", () => {
    const paying = section("## Paying a recipient")
    const bodies = [...paying.matchAll(/<<JSON \\\n.*?\n(\{\n[\s\S]*?\n\})\nJSON\n/g)].map(
      (match) => match[1] as string,
    )
    expect(bodies).toHaveLength(2)
    const sent = JSON.parse((bodies[1] as string).replace("$ENTITY", "ent_x"))
    expect(sent).toEqual({ entity_id: "ent_x", beneficiary_details: sandboxExamples.DE_SWIFT })
    const crossCurrency = paying.slice(paying.indexOf("A cross-currency quote"))
    for (const path of [
      "/api/v1/companies/$COMPANY/entities/$ENTITY/features",
      '{"feature_identifier":"multi_currency_account"}',
      "/api/v1/sandbox/features/$APPLICATION/status",
      "for STATUS in SUBMITTED ACTIVE",
      "/quotes",
    ]) {
      expect(crossCurrency).toContain(path)
    }
    // The same amounts as the cross-currency flow test (support/cross-currency-flow.ts) asserts.
    expect(crossCurrency).toContain("# USDEUR 0.9154 1118.51 26.09 1000.00")
  })

  it("lists the sandbox's test values as the sandbox and the fee schedule define them", () => {
    const values = section("### Sandbox test values")
    expect(values).toContain("`.13`")
    expect(values).toContain(testBanksTable())
    expect(values).toContain(exampleAccountsTable())
    expect(values).toContain(feeScheduleTable())
    expect(values).toContain(fxSentence())
  })
})
