import { Effect } from "effect"
import { Forbidden, Invalid } from "../../errors.ts"
import { ClockAdvance, type ClockAdvanceBody } from "../../model/test-clock.ts"
import { maxTestClockOffsetMs, offsetClock } from "../../rules/test-clock.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inTransaction } from "../steps/transaction.ts"
import { writeAccess } from "../steps/use-case.ts"
import { peekWorkspaceClock } from "../steps/workspace-clock.ts"

/**
 * Test clocks, one per workspace (sandbox mode): the time every resource of the workspace is
 * stamped and judged by (quote expiry, idempotency, bearer tokens, due jobs). Outside sandbox
 * mode there are none and time is the engine's clock.
 */
export const makeTestClocks = (ports: ServicePorts) => ({
  /** The actor's workspace's time now. */
  now: (actor: Actor): Effect.Effect<Date> =>
    peekWorkspaceClock(ports, actor.workspaceId).pipe(Effect.map((clock) => clock.now())),

  /**
   * Moves the actor's workspace's clock forward by `{ seconds }` (0 to a year), and its waiting
   * jobs as much closer, in one transaction; returns the workspace's new time. Another
   * workspace's clock and jobs do not move. The jobs that became due are the runner's to run.
   *
   * @example
   * const { now } = await engine.testClocks.advance(actor, { seconds: 900 }) // quotes made before have expired
   */
  advance: (actor: Actor, body: ClockAdvanceBody): Effect.Effect<{ readonly now: Date }, Invalid | Forbidden> =>
    Effect.gen(function* () {
      if (!ports.testClocks) {
        return yield* Effect.fail(new Forbidden({ field: "base", message: "Test clocks exist in sandbox mode only" }))
      }
      const ms = (yield* decodeBody(ClockAdvance, body)).seconds * 1000
      return yield* inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const offset = yield* tx.testClocks.offsetOf(actor.workspaceId)
          if (offset + ms > maxTestClockOffsetMs) {
            return yield* Effect.fail(Invalid.rule("seconds", "would move the clock more than 100 years ahead"))
          }
          const moved = yield* tx.testClocks.advance(actor.workspaceId, ms)
          yield* tx.jobs.bringForward(actor.workspaceId, ms)
          return { now: offsetClock(ports.clock, moved).now() }
        }),
      )
    }).pipe(writeAccess(actor)),
})

export type TestClocks = ReturnType<typeof makeTestClocks>
