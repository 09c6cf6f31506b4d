import type { JobTable } from "@payments-engine/adapters"
import type { JobRepository, JobRequest } from "@payments-engine/core"
import type { Tables } from "./memory-tables.ts"

/** A queued job with what the embedded runner writes back: runs, its last error, given up, when. */
export interface MemoryJob extends JobRequest {
  readonly attempts: number
  /** The engine's time of the runner's last write (a run taken, retried, given up); `created_at` until then. */
  readonly updated_at: string
  readonly last_error: string | null
  readonly given_up: boolean
}

/** Runs `change` on the storage's committed jobs, in a transaction of its own. */
export type InJobs = <T>(change: (jobs: Map<string, MemoryJob>) => T) => Promise<T>

const byDueTime = (a: MemoryJob, b: MemoryJob) =>
  a.run_at === b.run_at ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.run_at < b.run_at ? -1 : 1

/** Queues `job` unless a job with its key waits (given-up jobs free their key). */
export const enqueueInto = (jobs: Map<string, MemoryJob>, job: JobRequest): void => {
  const taken = [...jobs.values()].some((j) => j.key !== null && j.key === job.key && !j.given_up)
  if (!taken) {
    jobs.set(
      job.id,
      Object.freeze({ ...job, attempts: 0, last_error: null, given_up: false, updated_at: job.created_at }),
    )
  }
}

/** The job repository over one transaction's tables: a job commits with the change that queued it. */
export const memoryJobRepository = ({ jobs }: Pick<Tables, "jobs">): JobRepository => ({
  enqueue: async (job) => enqueueInto(jobs, job),
  bringForward: async (workspaceId, ms) => {
    for (const job of jobs.values()) {
      if (job.workspace_id !== workspaceId || job.given_up) continue
      jobs.set(job.id, Object.freeze({ ...job, run_at: new Date(Date.parse(job.run_at) - ms).toISOString() }))
    }
  },
  removeUnstarted: async (keys) => {
    const removed = new Set(keys)
    for (const job of jobs.values()) {
      if (job.key !== null && removed.has(job.key) && job.attempts === 0 && !job.given_up) jobs.delete(job.id)
    }
  },
})
/**
 * The memory storage's jobs as the embedded runner of `@payments-engine/adapters` reads and
 * settles them: a storage that keeps its jobs with its other tables gets claiming, retries,
 * backoff and waking from that runner, and writes only these few operations.
 */
export const memoryJobTable = (inJobs: InJobs): JobTable => {
  const waiting = (jobs: Map<string, MemoryJob>, kinds: ReadonlyArray<string>) =>
    [...jobs.values()].filter((j) => !j.given_up && kinds.includes(j.kind)).sort(byDueTime)
  const update = (id: string, change: Partial<MemoryJob>) =>
    inJobs((jobs) => {
      const job = jobs.get(id)
      if (job === undefined || job.given_up) return false
      jobs.set(id, Object.freeze({ ...job, ...change }))
      return true
    })
  return {
    due: (now, kinds, limit, busyQueues) =>
      inJobs((jobs) =>
        waiting(jobs, kinds)
          .filter((j) => j.run_at <= now && (j.queue == null || !busyQueues.includes(j.queue)))
          .slice(0, limit)
          .map((j) => ({ ...j, queue: j.queue ?? null })),
      ),
    nextRunAt: (kinds, after) => inJobs((jobs) => waiting(jobs, kinds).find((j) => j.run_at > after)?.run_at),
    // Only as read: a job another runner has run since is not taken again.
    take: (id, change) =>
      inJobs((jobs) => {
        const job = jobs.get(id)
        if (job === undefined || job.given_up || job.attempts !== change.attempts - 1) return false
        jobs.set(id, Object.freeze({ ...job, ...change }))
        return true
      }),
    finish: (id) => inJobs((jobs) => void jobs.delete(id)),
    retry: async (id, change) => void (await update(id, change)),
    giveUp: async (id, change) => void (await update(id, { ...change, given_up: true })),
    enqueue: (job) => inJobs((jobs) => enqueueInto(jobs, job)),
  }
}
