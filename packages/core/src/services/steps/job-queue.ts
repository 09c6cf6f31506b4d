import { type Effect, FiberRef } from "effect"
import type { WorkspaceId } from "../../model/ids.ts"
import { isoTime } from "../../model/iso-time.ts"
import { type JobKindName, type JobPayload, jobAttempts } from "../../model/job-kinds.ts"
import type { Repositories } from "../../ports/storage/index.ts"
import type { EnginePorts } from "./service-ports.ts"
import { type ActiveSpan, currentSpan } from "./trace-spans.ts"
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
  const now = isoTime(at)
  const id = ports.ids.next("job")
  return FiberRef.getWith(currentSpan, (active) =>
    tx.jobs.enqueue({
      id,
      kind: job.kind,
      payload: JSON.stringify(active === undefined ? job.payload : withTraceContext(job.payload, active)),
      run_at: job.delayMs === undefined ? now : isoTime(new Date(at.getTime() + job.delayMs)),
      key: job.key ?? null,
      max_attempts: jobAttempts[job.kind],
      created_at: now,
      workspace_id: job.workspaceId,
      ...(job.queue === undefined ? {} : { queue: job.queue }),
    }),
  )
}

/**
 * `payload` with the trace context of `active` beside its fields (`trace_context`, see
 * {@link traceContextOf}), so the job's run continues the trace of what queued it. A payload's
 * schema ignores fields it does not name, and the job log shows only allow-listed ones.
 */
const withTraceContext = (payload: object, active: ActiveSpan): object => {
  const carrier = active.tracing.inject(active.span.context)
  return Object.keys(carrier).length === 0 ? payload : { ...payload, [traceContextField]: carrier }
}

/** The field of a job's payload that carries the trace context it was queued in. */
const traceContextField = "trace_context"

/** The trace context a job's payload carries (what {@link enqueueJob} put there), for `Tracing.extract`. */
export const traceContextOf = (payload: unknown): unknown =>
  typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>)[traceContextField] : undefined
