import type { Effect } from "effect"
import type { Repositories } from "../ports/storage/index.ts"
import type { EnginePorts } from "./ports.ts"
import type { Lifted } from "./transaction.ts"

/** Queues background work in the caller's transaction, so it exists exactly when the change that needs it commits. */
export const enqueueJob = (
  ports: Pick<EnginePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  kind: string,
  payload: unknown,
  runAt: string,
): Effect.Effect<void> => {
  const now = ports.clock.now().toISOString()
  return tx.jobs.enqueue({
    id: ports.ids.next("job"),
    kind,
    payload: JSON.stringify(payload),
    run_at: runAt,
    attempts: 0,
    state: "queued",
    locked_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  })
}
