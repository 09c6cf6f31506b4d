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

  it("lists the sandbox's test values as the sandbox and the fee schedule define them", () => {
    const values = section("### Sandbox test values")
    expect(values).toContain("`.13`")
    expect(values).toContain(testBanksTable())
    expect(values).toContain(exampleAccountsTable())
    expect(values).toContain(feeScheduleTable())
    expect(values).toContain(fxSentence())
  })
})
