import { embeddedJobQueue, type JobTable } from "@payments-engine/adapters"
import type {
  ApiKeyRecord,
  ClaimResult,
  CompanyRecord,
  EntityRecord,
  IdempotencyRecord,
  RecipientRecord,
  Repositories,
  Slice,
  Storage,
  StorageCapabilities,
  Window,
  WorkspaceRecord,
} from "@payments-engine/core"
import { type FeatureTable, featureRepositoryOver } from "./memory-feature-repositories.ts"
import { memoryJobTable } from "./memory-job-table.ts"
import {
  copyMoneyTables,
  emptyMoneyTables,
  type MoneyTables,
  moneyRepositoriesOver,
} from "./memory-money-repositories.ts"

/** Everything the storage keeps. Records are immutable: a write replaces the map entry. */
export interface Tables extends MoneyTables {
  readonly workspaces: Map<string, WorkspaceRecord>
  readonly apiKeys: Map<string, ApiKeyRecord>
  readonly companies: Map<string, CompanyRecord>
  readonly entities: Map<string, EntityRecord>
  readonly recipients: Map<string, RecipientRecord>
  readonly idempotency: Map<string, IdempotencyRecord>
  readonly settings: Map<string, string>
  readonly features: FeatureTable
  /** Test clocks (sandbox mode): milliseconds ahead of the engine's clock, by workspace. */
  readonly testClocks: Map<string, number>
}

const emptyTables = (): Tables => ({
  ...emptyMoneyTables(),
  workspaces: new Map(),
  apiKeys: new Map(),
  companies: new Map(),
  entities: new Map(),
  recipients: new Map(),
  idempotency: new Map(),
  settings: new Map(),
  features: new Map(),
  testClocks: new Map(),
})

/** A copy a transaction may change freely: new maps over the same (frozen) records. */
const copyTables = (tables: Tables): Tables => ({
  ...copyMoneyTables(tables),
  workspaces: new Map(tables.workspaces),
  apiKeys: new Map(tables.apiKeys),
  companies: new Map(tables.companies),
  entities: new Map(tables.entities),
  recipients: new Map(tables.recipients),
  idempotency: new Map(tables.idempotency),
  settings: new Map(tables.settings),
  features: new Map(tables.features),
  testClocks: new Map(tables.testClocks),
})

const byId = (a: { readonly id: string }, b: { readonly id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The live rows that match, in id order, cut to the window. */
const sliceOf = <T extends { readonly id: string; readonly deleted_at: string | null }>(
  rows: Iterable<T>,
  keep: (row: T) => boolean,
  window: Window,
): Slice<T> => {
  const live = [...rows].filter((row) => row.deleted_at === null && keep(row)).sort(byId)
  return { rows: live.slice(window.offset, window.offset + window.limit), total: live.length }
}

const freeze = <T extends object>(row: T): T => Object.freeze({ ...row })

const idempotencyKey = (workspaceId: string, key: string) => `${workspaceId}\u0000${key}`

/** Repositories that read and write one set of tables (a transaction's private copy). */
const repositoriesOver = (t: Tables): Repositories => ({
  ...moneyRepositoriesOver(t),
  testClocks: {
    offsetOf: async (workspaceId) => t.testClocks.get(workspaceId) ?? 0,
    // Transactions run one after another, so reading and adding cannot lose a racing advance.
    advance: async (workspaceId, ms) => {
      const offset = (t.testClocks.get(workspaceId) ?? 0) + ms
      t.testClocks.set(workspaceId, offset)
      return offset
    },
  },
  workspaces: {
    insertOrGet: async (row) => {
      for (const existing of t.workspaces.values()) if (existing.name === row.name) return existing
      t.workspaces.set(row.id, freeze(row))
      return row
    },
  },
  apiKeys: {
    insert: async (row) => {
      if (t.apiKeys.has(row.key)) throw new Error(`duplicate api key ${row.key}`)
      t.apiKeys.set(row.key, freeze(row))
    },
    findByKey: async (key) => t.apiKeys.get(key),
    count: async () => t.apiKeys.size,
  },
  companies: {
    insert: async (row) => {
      if (t.companies.has(row.id)) throw new Error(`duplicate company ${row.id}`)
      t.companies.set(row.id, freeze(row))
    },
    find: async (workspaceId, id) => {
      const row = t.companies.get(id)
      return row?.workspace_id === workspaceId ? row : undefined
    },
    update: async (row) => {
      if (t.companies.has(row.id)) t.companies.set(row.id, freeze(row))
    },
    listActive: async (workspaceId, window) =>
      sliceOf(t.companies.values(), (row) => row.workspace_id === workspaceId, window),
  },
  entities: {
    insertIfNoneActive: async (row) => {
      for (const existing of t.entities.values()) {
        if (existing.company_id === row.company_id && existing.deleted_at === null) return false
      }
      t.entities.set(row.id, freeze(row))
      return true
    },
    findActive: async (companyId, id) => {
      const row = t.entities.get(id)
      return row?.company_id === companyId && row.deleted_at === null ? row : undefined
    },
    findActiveById: async (id) => {
      const row = t.entities.get(id)
      return row?.deleted_at === null ? row : undefined
    },
    findActiveOfCompany: async (companyId) =>
      [...t.entities.values()].find((row) => row.company_id === companyId && row.deleted_at === null),
    update: async (row) => {
      const current = t.entities.get(row.id)
      if (current === undefined) return
      // The integration flag is set by `markIntegrationActive` only: a stale row cannot clear it.
      t.entities.set(row.id, freeze({ ...row, payment_integration_active: current.payment_integration_active }))
    },
    markIntegrationActive: async (companyId, id) => {
      const current = t.entities.get(id)
      if (current?.company_id !== companyId || current.deleted_at !== null) return false
      t.entities.set(id, freeze({ ...current, payment_integration_active: true }))
      return true
    },
    listActive: async (companyId, window) =>
      sliceOf(t.entities.values(), (row) => row.company_id === companyId, window),
  },
  recipients: {
    insert: async (row) => {
      if (t.recipients.has(row.id)) throw new Error(`duplicate recipient ${row.id}`)
      t.recipients.set(row.id, freeze(row))
    },
    findActive: async (companyId, id) => {
      const row = t.recipients.get(id)
      return row?.company_id === companyId && row.deleted_at === null ? row : undefined
    },
    update: async (row) => {
      if (t.recipients.has(row.id)) t.recipients.set(row.id, freeze(row))
    },
    listActive: async (companyId, window) =>
      sliceOf(t.recipients.values(), (row) => row.company_id === companyId, window),
  },
  idempotency: {
    claim: async (row): Promise<ClaimResult> => {
      const existing = t.idempotency.get(idempotencyKey(row.workspace_id, row.key))
      if (existing) return { claimed: false, existing }
      t.idempotency.set(idempotencyKey(row.workspace_id, row.key), freeze(row))
      return { claimed: true }
    },
    find: async (workspaceId, key) => t.idempotency.get(idempotencyKey(workspaceId, key)),
    replace: async (row) => {
      t.idempotency.set(idempotencyKey(row.workspace_id, row.key), freeze(row))
    },
    delete: async (workspaceId, key) => {
      t.idempotency.delete(idempotencyKey(workspaceId, key))
    },
    purgeExpired: async (now) => {
      let purged = 0
      for (const [id, row] of t.idempotency) {
        if (row.expires_at <= now) {
          t.idempotency.delete(id)
          purged += 1
        }
      }
      return purged
    },
  },
  features: featureRepositoryOver(t.features),
  settings: {
    get: async (name) => t.settings.get(name),
    putIfAbsent: async (name, value) => {
      const existing = t.settings.get(name)
      if (existing !== undefined) return existing
      t.settings.set(name, value)
      return value
    },
  },
})

/** Options of {@link createMemoryStorage}. */
export interface MemoryStorageOptions {
  /** Rewrites the job table the runner works on: how the suite's planted faults reach it. */
  readonly plantInJobTable?: (table: JobTable) => JobTable
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
    committed: () => tables,
    async transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
      let queued = false
      const result = await inTransaction((draft) => {
        const tx = repositoriesOver(draft)
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
