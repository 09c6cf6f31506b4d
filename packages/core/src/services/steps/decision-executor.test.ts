import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import type { Decision } from "../../machines/stored-machine.ts"
import { applyDecision, carryOutActions } from "./decision-executor.ts"

const machine = { resource: "payment" }

const decision: Decision<"completed"> = {
  status: "completed",
  actions: [
    { type: "emit", event: "PaymentEvents::CompletedEvent" },
    { type: "count_in_batch", outcome: "succeeded" },
  ],
}

/** An executor run that records what each step did. */
const recorded = (won: boolean) => {
  const done: Array<string> = []
  const run = applyDecision(machine, decision, {
    compareAndSet: (status) =>
      Effect.sync(() => {
        done.push(`set ${status}`)
        return won ? { id: "pay_1" } : undefined
      }),
    carriers: (row) => ({
      emit: (action) => Effect.sync(() => done.push(`emit ${action.event} of ${row.id}`)),
      count_in_batch: (action) => Effect.sync(() => done.push(`count ${action.outcome} of ${row.id}`)),
    }),
  })
  return { done, run }
}

describe("the decision executor", () => {
  it("writes the status, then carries out the actions in order on the row as written", async () => {
    const { done, run } = recorded(true)
    expect(await Effect.runPromise(run)).toEqual({ id: "pay_1" })
    expect(done).toEqual(["set completed", "emit PaymentEvents::CompletedEvent of pay_1", "count succeeded of pay_1"])
  })

  it("carries out nothing when another writer won the compare-and-set", async () => {
    const { done, run } = recorded(false)
    expect(await Effect.runPromise(run)).toBeUndefined()
    expect(done).toEqual(["set completed"])
  })

  it("dies on an action its aggregate does not carry out, rather than dropping it", async () => {
    const exit = await Effect.runPromiseExit(
      carryOutActions(machine, [{ type: "activate_entity_integration" }], { emit: () => Effect.void }),
    )
    expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toMatch(
      /the payment machine asked for {"type":"activate_entity_integration"}/,
    )
  })
})
