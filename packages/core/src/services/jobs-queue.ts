import { Effect } from "effect"
import { type JobKindName, type JobPayload, jobAttempts } from "../jobs/job-catalogue.ts"
import type { Repositories } from "../ports/storage/index.ts"
import type { EnginePorts } from "./ports.ts"
import type { Lifted } from "./transaction.ts"

/**
 * Queues background work in the caller's transaction, so it exists exactly when the change that
 * needs it commits. `key` keeps a second job for the same thing out while one waits or runs.
 */
export const enqueueJob = <K extends JobKindName>(
  ports: Pick<EnginePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  job: { readonly kind: K; readonly payload: JobPayload<K>; readonly key: string; readonly runAt?: string },
): Effect.Effect<void> => {
  const now = ports.clock.now().toISOString()
  return tx.jobs
    .enqueue({
      id: ports.ids.next("job"),
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      run_at: job.runAt ?? now,
      key: job.key,
      max_attempts: jobAttempts[job.kind],
      created_at: now,
    })
    .pipe(Effect.asVoid)
}
