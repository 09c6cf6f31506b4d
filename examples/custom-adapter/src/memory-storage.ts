import { embeddedJobQueue, type JobTable, oneProcessLiveness } from "@payments-engine/adapters"
import type { Awaitable, JobRepository, Repositories, Storage, StorageCapabilities } from "@payments-engine/core"
import { memoryJobTable } from "./memory-job-table.ts"
import { memoryRepositories } from "./memory-repositories.ts"
import { copyTables, emptyTables, type Tables } from "./memory-tables.ts"

const readsOnly = (method: string) => async () => {
  throw new Error(`a read must not write (jobs.${method}): run work that queues jobs in transaction`)
}

/** The jobs of a read: a job queued where nothing commits would vanish, so each method rejects. */
const refusingJobs: JobRepository = {
  enqueue: readsOnly("enqueue"),
  bringForward: readsOnly("bringForward"),
  removeUnstarted: readsOnly("removeUnstarted"),
}

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
  /** The port's optional read, which this storage has. */
  read<T>(work: (tx: Repositories) => Awaitable<T>): Promise<T>
  /** The job table its runners work on, for the contract suite's `jobTable` option. */
  readonly jobTable: JobTable
}

/**
 * A storage adapter that keeps everything in memory: the smallest thing that passes the
 * contract suite, and a template for your own adapter.
 *
 * Transactions run one at a time (a promise queue), each on its own copy of the tables; the copy
 * replaces the tables when the work resolves and is dropped when it rejects, so a rollback
 * really undoes every write. A read (the port's optional `read`) waits for no transaction: it
 * runs at once on a copy of what is committed, and refuses jobs; what else it writes is dropped. Nothing survives the process, so `multiProcess` is false. Jobs
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
  const inTransaction = <T>(work: (draft: Tables) => Awaitable<T>): Promise<T> => {
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
  const unplanted = memoryJobTable((change) => inTransaction((draft) => change(draft.jobs)))
  const table = options.plantInJobTable?.(unplanted) ?? unplanted
  const jobs = embeddedJobQueue(table)

  return {
    capabilities,
    // One process holds the tables: a claimed Idempotency-Key of any other is dead.
    processes: oneProcessLiveness(),
    committed: () => tables,
    jobTable: table,
    async transaction<T>(work: (tx: Repositories) => Awaitable<T>): Promise<T> {
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
    async read<T>(work: (tx: Repositories) => Awaitable<T>): Promise<T> {
      if (closed) throw new Error("memory storage is closed")
      // A copy, because the committed tables must never change in place (`committed()`).
      const draft = copyTables(tables)
      const planted = options.plantInRepositories
      const tx = planted === undefined ? memoryRepositories(draft) : planted(memoryRepositories(draft), draft)
      return work({ ...tx, jobs: refusingJobs })
    },
    createJobRunner: (handlers, runnerOptions) => jobs.createRunner(handlers, runnerOptions),
    async close() {
      closed = true
      await queue
    },
  }
}
