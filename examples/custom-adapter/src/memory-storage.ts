import { embeddedJobQueue, type JobTable, oneProcessLiveness } from "@payments-engine/adapters"
import type { Repositories, Storage, StorageCapabilities } from "@payments-engine/core"
import { memoryJobTable } from "./memory-job-table.ts"
import { memoryRepositories } from "./memory-repositories.ts"
import { copyTables, emptyTables, type Tables } from "./memory-tables.ts"

/** Options of {@link createMemoryStorage}. */
export interface MemoryStorageOptions {
  /** Rewrites the job table the runner works on: how the suite's planted faults reach it. */
  readonly plantInJobTable?: (table: JobTable) => JobTable
  /**
   * Rewrites a transaction's repositories, with that transaction's tables at hand: how the
   * suite's planted faults write what the port alone cannot (a count below zero).
   */
  readonly plantInRepositories?: (tx: Repositories, draft: Tables) => Repositories
}

/** The memory storage, and a look at what it committed for the contract suite's reader. */
export interface MemoryStorage extends Storage {
  /** The committed tables; a commit replaces them whole, so what this returns never changes. Do not write to it. */
  committed(): Tables
}

/**
 * A storage adapter that keeps everything in memory: the smallest thing that passes the
 * contract suite, and a template for your own adapter.
 *
 * Transactions run one at a time (a promise queue), each on its own copy of the tables; the copy
 * replaces the tables when the work resolves and is dropped when it rejects, so a rollback
 * really undoes every write. Nothing survives the process, so `multiProcess` is false. Jobs
 * live with the other tables and run on the embedded runner of `@payments-engine/adapters`.
 *
 * @example
 * const storage = createMemoryStorage()
 * const engine = createEngine({ storage, clock, ids, hasher })
 */
export const createMemoryStorage = (options: MemoryStorageOptions = {}): MemoryStorage => {
  let tables = emptyTables()
  let queue: Promise<unknown> = Promise.resolve()
  let closed = false
  const capabilities: StorageCapabilities = { multiProcess: false, concurrentTransactions: false }

  /** Runs `work` on a private copy of the tables, which replaces them once `work` resolves. */
  const inTransaction = <T>(work: (draft: Tables) => Promise<T> | T): Promise<T> => {
    if (closed) return Promise.reject(new Error("memory storage is closed"))
    const run = async () => {
      const draft = copyTables(tables)
      const result = await work(draft)
      tables = draft
      return result
    }
    const outcome = queue.then(run)
    // The next transaction waits for this one to settle, whichever way it goes.
    queue = outcome.catch(() => undefined)
    return outcome
  }
  const table = memoryJobTable((change) => inTransaction((draft) => change(draft.jobs)))
  const jobs = embeddedJobQueue(options.plantInJobTable?.(table) ?? table)

  return {
    capabilities,
    // One process holds the tables: a claimed Idempotency-Key of any other is dead.
    processes: oneProcessLiveness(),
    committed: () => tables,
    async transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
      let queued = false
      const result = await inTransaction((draft) => {
        const planted = options.plantInRepositories
        const tx = planted === undefined ? memoryRepositories(draft) : planted(memoryRepositories(draft), draft)
        return work({
          ...tx,
          jobs: {
            enqueue: async (job) => {
              await tx.jobs.enqueue(job)
              queued = true
            },
            bringForward: async (workspaceId, ms) => {
              await tx.jobs.bringForward(workspaceId, ms)
              queued = true
            },
            removeUnstarted: (keys) => tx.jobs.removeUnstarted(keys),
          },
        })
      })
      if (queued) jobs.notify()
      return result
    },
    createJobRunner: (handlers, runnerOptions) => jobs.createRunner(handlers, runnerOptions),
    async close() {
      closed = true
      await queue
    },
  }
}
