import type { WorkspaceId } from "../../model/types/ids.ts"
import type { Awaitable } from "../awaitable.ts"

/**
 * The test clocks of sandbox mode, one per workspace, as Stripe's test clocks are objects of their
 * own: a workspace's time is the engine's clock plus its offset, which only grows. Kept in
 * storage so that a restart keeps it and every process on the database reads the same time.
 * An engine outside sandbox mode never calls this repository.
 */
export interface TestClockRepository {
  /** How many milliseconds the workspace's clock runs ahead of the engine's; 0 until it is moved. */
  offsetOf(workspaceId: WorkspaceId): Awaitable<number>
  /**
   * Moves the workspace's clock `ms` further ahead and returns its new offset. Atomic: of two
   * advances at the same time, in one process or two, both count.
   */
  advance(workspaceId: WorkspaceId, ms: number): Awaitable<number>
}
