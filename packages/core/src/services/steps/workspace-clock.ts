import { Effect } from "effect"
import type { WorkspaceId } from "../../model/ids.ts"
import type { Clock } from "../../ports/clock.ts"
import { offsetClock } from "../../rules/test-clock.ts"
import type { ServicePorts } from "./service-ports.ts"
import { inRead, inTransaction, type Lifted, type ReadRepositories } from "./transaction.ts"

/**
 * The clock of a workspace's resources, read in the caller's transaction: in sandbox mode the
 * engine's clock plus the workspace's test clock offset, kept in storage (a restart and every
 * process see the same time; nothing is cached, so another process's move is seen at once);
 * otherwise the engine's clock, with no read at all.
 */
export const workspaceClock = (
  ports: Pick<ServicePorts, "clock" | "testClocks">,
  tx: Lifted<ReadRepositories>,
  workspaceId: WorkspaceId,
): Effect.Effect<Clock> =>
  ports.testClocks
    ? tx.testClocks.offsetOf(workspaceId).pipe(Effect.map((offset) => offsetClock(ports.clock, offset)))
    : Effect.succeed(ports.clock)

/**
 * The workspace's clock where no transaction is at hand (a use case that calls a provider
 * before it writes): read in a transaction of its own in sandbox mode, no read otherwise.
 */
export const readWorkspaceClock = (
  ports: Pick<ServicePorts, "clock" | "testClocks" | "storage">,
  workspaceId: WorkspaceId,
): Effect.Effect<Clock> =>
  ports.testClocks
    ? // The transaction returns the offset, not the clock: a keyed request journals its result.
      inTransaction(ports.storage, (tx) => tx.testClocks.offsetOf(workspaceId)).pipe(
        Effect.map((offset) => offsetClock(ports.clock, offset)),
      )
    : Effect.succeed(ports.clock)

/**
 * The workspace's clock for a use case that only reads (a test clock's time, a token's expiry):
 * as {@link readWorkspaceClock}, in a read scope, so never journaled with an `Idempotency-Key`.
 */
export const peekWorkspaceClock = (
  ports: Pick<ServicePorts, "clock" | "testClocks" | "storage">,
  workspaceId: WorkspaceId,
): Effect.Effect<Clock> =>
  ports.testClocks ? inRead(ports.storage, (tx) => workspaceClock(ports, tx, workspaceId)) : Effect.succeed(ports.clock)
