import type { TestClockRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"

/** Test clocks: milliseconds ahead of the engine's clock, by workspace. */
export const memoryTestClockRepository = (t: Pick<Tables, "testClocks">): TestClockRepository => ({
  offsetOf: async (workspaceId) => t.testClocks.get(workspaceId) ?? 0,
  // Transactions run one after another, so reading and adding cannot lose a racing advance.
  advance: async (workspaceId, ms) => {
    const offset = (t.testClocks.get(workspaceId) ?? 0) + ms
    t.testClocks.set(workspaceId, offset)
    return offset
  },
})
