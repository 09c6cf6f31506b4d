import { Effect } from "effect"
import type { WorkspaceId } from "../../model/ids.ts"
import { type JobKindName, type JobPayload, jobAttempts } from "../../model/job-kinds.ts"
import type { Repositories } from "../../ports/storage/index.ts"
import type { EnginePorts } from "./service-ports.ts"
import type { Lifted } from "./transaction.ts"

/**
 * Queues background work in the caller's transaction, so it exists exactly when the change that
 * needs it commits, due at once. `key` keeps a second job for the same thing out while one waits
 * or runs, where a second could be queued: a job queued with the status change it carries out
 * needs none, since the compare-and-set of that change happens once; `delayMs` makes it due later; `queue` runs it after
 * the other jobs of its queue, never beside them; `workspaceId` names the workspace whose test clock moves the job. Times are the
 * engine's clock (`ports.clock`), never a workspace's: a workspace's move brings its jobs closer.
 */
export const enqueueJob = <K extends JobKindName>(
  ports: Pick<EnginePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  job: {
    readonly kind: K
    readonly payload: JobPayload<K>
    readonly key?: string
    readonly workspaceId: WorkspaceId
    /** Due this long after now (engine time); at once when left out. */
    readonly delayMs?: number
    /** Jobs of one queue run one at a time (`JobRequest.queue`); none when left out. */
    readonly queue?: string
  },
): Effect.Effect<void> => {
  const at = ports.clock.now()
  const now = at.toISOString()
  return tx.jobs
    .enqueue({
      id: ports.ids.next("job"),
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      run_at: job.delayMs === undefined ? now : new Date(at.getTime() + job.delayMs).toISOString(),
      key: job.key ?? null,
      max_attempts: jobAttempts[job.kind],
      created_at: now,
      workspace_id: job.workspaceId,
      ...(job.queue === undefined ? {} : { queue: job.queue }),
    })
    .pipe(Effect.asVoid)
}
