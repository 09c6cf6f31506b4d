import { describe, expect, it } from "vitest"
import { contractScenarios } from "./contract-scenarios.ts"
import { contractTestIds } from "./contract-test-ids.ts"
import { runContractSuite, runContractTest } from "./run-contract-suite.ts"
import { counterIds, testClock } from "./test-ports.ts"

/** Never called: these tests stop before any storage is opened. */
const unusedReader = () => {
  throw new Error("unused")
}

describe("the contract suite", () => {
  it("has exactly one scenario per test id, in the order of the ids", () => {
    expect(contractScenarios.map((s) => s.id)).toEqual([...contractTestIds])
  })

  it("refuses unknown ids in skip, so a typo does not silently run a test", () => {
    expect(() =>
      runContractSuite({
        name: "typo",
        factory: () => Promise.reject(new Error("unused")),
        reader: unusedReader,
        skip: ["companies.soft-delet" as never],
      }),
    ).toThrow(/unknown test ids in skip: companies.soft-delet/)
    return expect(
      runContractTest("nope" as never, { factory: () => Promise.reject(new Error("unused")), reader: unusedReader }),
    ).rejects.toThrow(/unknown contract test id/)
  })
})

describe("the suite's test ports", () => {
  it("make ids that sort in creation order and never repeat", () => {
    const ids = counterIds()
    const made = Array.from({ length: 1200 }, (_, i) => ids.next(i % 2 === 0 ? "cmp" : "ent")).filter((id) =>
      id.startsWith("cmp_"),
    )
    expect([...made].sort()).toEqual(made)
    expect(new Set(made).size).toBe(made.length)
  })

  it("move the clock only when told", () => {
    const clock = testClock(new Date("2030-01-01T00:00:00.000Z"))
    expect(clock.now().toISOString()).toBe("2030-01-01T00:00:00.000Z")
    clock.advance(60_000)
    expect(clock.now().toISOString()).toBe("2030-01-01T00:01:00.000Z")
  })
})
