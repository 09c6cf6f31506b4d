import { type ContractTestId, runContractTest } from "@payments-engine/contract-tests"
import type {
  AttachmentRepository,
  EventRecord,
  JobTable,
  OnboardingRepository,
  PaymentBatchRecord,
  PaymentBatchRepository,
  PersonRepository,
  ProfileInUse,
  QuoteRecord,
  Repositories,
  WebhookDeliveryId,
  WebhookEndpointRepository,
} from "@payments-engine/core"
import { describe, expect, it } from "vitest"
import { memoryContractReader as reader } from "./memory-contract-reader.ts"
import type { MemoryJob } from "./memory-job-table.ts"
import { memoryRepositories } from "./memory-repositories.ts"
import { createMemoryStorage, type MemoryStorage } from "./memory-storage.ts"
import { copyTables, type Tables } from "./memory-tables.ts"

/*
 * The suite must fail an adapter with a bug, not only pass a good one. Each case plants one bug
 * that real adapters have had into the memory storage and names tests that must catch it.
 */

/** The memory storage with its repositories rewritten by `plant` in every transaction and every read. */
const withFault = (plant: (tx: Repositories) => Repositories) => async (): Promise<MemoryStorage> => {
  const storage = createMemoryStorage()
  return {
    ...storage,
    transaction: (work) => storage.transaction((tx) => work(plant(tx))),
    read: (work) => storage.read((tx) => work(plant(tx))),
  }
}

/** `LIKE name` as SQLite reads it: ASCII case ignored, `_` any one character, `%` any run. */
const likePattern = (name: string) =>
  new RegExp(
    `^${[...name].map((c) => (c === "%" ? ".*" : c === "_" ? "." : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("")}$`,
    "i",
  )

/** A storage whose workspace lookup by name is a `LIKE`: the first stored match wins. */
const likeWorkspaceLookup = async (): Promise<MemoryStorage> => {
  const storage = createMemoryStorage()
  return {
    ...storage,
    transaction: (work) =>
      storage.transaction((tx) =>
        work({
          ...tx,
          workspaces: {
            ...tx.workspaces,
            insertOrGet: async (row) => {
              const match = likePattern(row.name)
              const found = [...storage.committed().workspaces.values()].find((w) => match.test(w.name))
              return found ?? tx.workspaces.insertOrGet(row)
            },
          },
        }),
      ),
  }
}

/** Leaves a finished job in the queue, due at once: it runs again until its attempts are used. */
const requeueFinishedJobs = async () =>
  createMemoryStorage({ plantInJobTable: (table) => ({ ...table, finish: async () => {} }) })

/** Leaves a finished job in the queue and counts no run: a drain of the queue never ends. */
const neverSettleJobs = async () =>
  createMemoryStorage({ plantInJobTable: (table) => ({ ...table, take: async () => true, finish: async () => {} }) })

/** The memory storage with its job table rewritten by `plant`, which may read the committed jobs. */
const withJobTableFault =
  (plant: (table: JobTable, committedJobs: () => ReadonlyArray<MemoryJob>) => Partial<JobTable>) =>
  async (): Promise<MemoryStorage> => {
    const storage: MemoryStorage = createMemoryStorage({
      plantInJobTable: (table) => ({ ...table, ...plant(table, () => [...storage.committed().jobs.values()]) }),
    })
    return storage
  }

const byId = <T extends { readonly id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const dropMilliseconds = (iso: string) => iso.replace(/\.\d{3}Z$/, "Z")

const plusMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString()

/**
 * The memory storage with its batch repository rewritten by `plant`, which may write the
 * transaction's tables directly: a bug can store what the port's methods never would.
 */
const withBatchFault =
  (plant: (batches: PaymentBatchRepository, draft: Tables) => Partial<PaymentBatchRepository>) =>
  async (): Promise<MemoryStorage> =>
    createMemoryStorage({
      plantInRepositories: (tx, draft) => ({
        ...tx,
        paymentBatches: { ...tx.paymentBatches, ...plant(tx.paymentBatches, draft) },
      }),
    })

/** Stores a batch row as it is, in the transaction's tables, and answers it. */
const putBatch = (draft: Tables, row: PaymentBatchRecord): PaymentBatchRecord => {
  draft.paymentBatches.set(row.id, Object.freeze({ ...row }))
  return row
}

/**
 * The memory storage with its webhook endpoint repository rewritten by `plant`, which may read
 * and write the transaction's tables directly.
 */
const withEndpointFault =
  (plant: (endpoints: WebhookEndpointRepository, draft: Tables) => Partial<WebhookEndpointRepository>) =>
  async (): Promise<MemoryStorage> =>
    createMemoryStorage({
      plantInRepositories: (tx, draft) => ({
        ...tx,
        webhookEndpoints: { ...tx.webhookEndpoints, ...plant(tx.webhookEndpoints, draft) },
      }),
    })

/**
 * The memory storage with its onboarding repositories rewritten by `plant`, which may read and
 * write the transaction's tables directly.
 */
const withOnboardingFault =
  (
    plant: (
      ports: {
        readonly onboardings: OnboardingRepository
        readonly persons: PersonRepository
        readonly attachments: AttachmentRepository
      },
      draft: Tables,
    ) => {
      readonly onboardings?: Partial<OnboardingRepository>
      readonly persons?: Partial<PersonRepository>
      readonly attachments?: Partial<AttachmentRepository>
    },
  ) =>
  async (): Promise<MemoryStorage> =>
    createMemoryStorage({
      plantInRepositories: (tx, draft) => {
        const planted = plant(
          { onboardings: tx.onboardings, persons: tx.onboardingPersons, attachments: tx.onboardingAttachments },
          draft,
        )
        return {
          ...tx,
          onboardings: { ...tx.onboardings, ...planted.onboardings },
          onboardingPersons: { ...tx.onboardingPersons, ...planted.persons },
          onboardingAttachments: { ...tx.onboardingAttachments, ...planted.attachments },
        }
      },
    })

const faults: ReadonlyArray<{
  readonly bug: string
  readonly factory: () => Promise<MemoryStorage>
  readonly caughtBy: ReadonlyArray<ContractTestId>
}> = [
  {
    bug: "commits the writes of a transaction whose work rejected",
    factory: async () => {
      const storage = createMemoryStorage()
      return {
        ...storage,
        transaction: async (work) => {
          let failure: { reason: unknown } | undefined
          const value = await storage.transaction(async (tx) => {
            try {
              return await work(tx)
            } catch (reason) {
              failure = { reason }
              return undefined as never
            }
          })
          if (failure) throw failure.reason
          return value
        },
      }
    },
    caughtBy: ["storage.rollback"],
  },
  {
    bug: "reads what was committed when it opened, not what is committed now",
    factory: async () => {
      const storage = createMemoryStorage()
      const opened = storage.committed()
      return { ...storage, read: async (work) => work(memoryRepositories(copyTables(opened))) }
    },
    caughtBy: ["storage.read-committed"],
  },
  {
    bug: "resolves a read whose work rejected",
    factory: async () => {
      const storage = createMemoryStorage()
      return { ...storage, read: (work) => storage.read(work).catch(() => undefined as never) }
    },
    caughtBy: ["storage.read-rejects"],
  },
  {
    bug: "reads the tables of the transaction still open, as a read on a transaction's connection would",
    factory: async () => {
      let open: Tables | undefined
      const storage = createMemoryStorage({
        plantInRepositories: (tx, draft) => {
          open = draft
          return tx
        },
      })
      return {
        ...storage,
        read: async (work) => (open === undefined ? storage.read(work) : work(memoryRepositories(open))),
      }
    },
    caughtBy: ["storage.read-isolated"],
  },
  {
    bug: "says it inserted an entity when the company already had one",
    factory: withFault((tx) => ({
      ...tx,
      entities: {
        ...tx.entities,
        insertIfNoneActive: async (row) => {
          await tx.entities.insertIfNoneActive(row)
          return true
        },
      },
    })),
    caughtBy: ["entities.one-per-company", "concurrency.one-entity-per-company"],
  },
  {
    bug: "reads no setting back: get answers nothing even for a stored one",
    factory: withFault((tx) => ({ ...tx, settings: { ...tx.settings, get: async () => undefined } })),
    caughtBy: ["access.workspaces-and-settings"],
  },
  {
    bug: "ignores the window of a list",
    factory: withFault((tx) => ({
      ...tx,
      companies: { ...tx.companies, listActive: (id) => tx.companies.listActive(id, { offset: 0, limit: 1000 }) },
    })),
    caughtBy: ["companies.paging"],
  },
  {
    bug: "moves a payment's status without checking the status it moves from",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        compareAndSetStatus: async (id, _from, to, change) => {
          const current = await tx.payments.findById(id)
          return current === undefined ? undefined : tx.payments.compareAndSetStatus(id, current.status, to, change)
        },
      },
    })),
    caughtBy: ["payments.compare-and-set"],
  },
  {
    bug: "returns the payment from a compare-and-set that did not change it",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        compareAndSetStatus: async (id, from, to, change) =>
          (await tx.payments.compareAndSetStatus(id, from, to, change)) ?? tx.payments.findById(id),
      },
    })),
    caughtBy: ["payments.compare-and-set"],
  },
  {
    bug: "says it inserted a payment whose quote or business key was already taken (no unique indexes)",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        insertIfNew: async (row) => {
          await tx.payments.insertIfNew(row)
          return "inserted" as const
        },
      },
    })),
    caughtBy: ["payments.quote-single-use", "concurrency.payment-idempotency", "model.quotes-and-payments"],
  },
  {
    bug: "moves a payment that was written since the last update its writer read",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        compareAndSetStatus: (id, from, to, change) => tx.payments.compareAndSetStatus(id, from, to, change),
      },
    })),
    caughtBy: ["payments.compare-and-set"],
  },
  {
    bug: "lists as stuck a processing payment updated at the very time asked about",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        listStuck: (before, limit) => tx.payments.listStuck(new Date(Date.parse(before) + 1).toISOString(), limit),
      },
    })),
    caughtBy: ["payments.list-stuck"],
  },
  {
    bug: "lists stuck payments in id order instead of least recently updated first",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        listStuck: async (before, limit) =>
          [...(await tx.payments.listStuck(before, 1000))].sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, limit),
      },
    })),
    caughtBy: ["payments.list-stuck"],
  },
  {
    bug: "ignores the limit of the stuck payments",
    factory: withFault((tx) => ({
      ...tx,
      payments: { ...tx.payments, listStuck: (before) => tx.payments.listStuck(before, 1000) },
    })),
    caughtBy: ["payments.list-stuck"],
  },
  {
    bug: "ignores the status filter of the payment list",
    factory: withFault((tx) => ({
      ...tx,
      payments: { ...tx.payments, list: (companyId, _filter, window) => tx.payments.list(companyId, {}, window) },
    })),
    caughtBy: ["payments.list-filters", "model.quotes-and-payments"],
  },
  {
    bug: "gives quote amounts back as numbers, without their trailing zeros",
    // Every read of a quote has the bug: by itself, with its company, with its payment.
    factory: withFault((tx) => {
      const number = (amount: string) => String(Number(amount))
      const numeric = <Q extends QuoteRecord | undefined>(row: Q): Q =>
        row && {
          ...row,
          instructed_amount: number(row.instructed_amount),
          source_amount: number(row.source_amount),
          target_amount: number(row.target_amount),
        }
      return {
        ...tx,
        quotes: { ...tx.quotes, find: async (companyId, id) => numeric(await tx.quotes.find(companyId, id)) },
        companies: {
          ...tx.companies,
          findWithQuoteInUse: async (workspaceId, id, quoteId) => {
            const found = await tx.companies.findWithQuoteInUse(workspaceId, id, quoteId)
            return found && { ...found, quote: numeric(found.quote) }
          },
        },
        payments: {
          ...tx.payments,
          findForExecution: async (id) => {
            const found = await tx.payments.findForExecution(id)
            return found && { ...found, quote: numeric(found.quote) }
          },
        },
      }
    }),
    caughtBy: ["quotes.net-and-gross", "payments.create-and-execute"],
  },
  {
    bug: "drops a bank account's address on insert",
    factory: withFault((tx) => ({
      ...tx,
      bankAccounts: { ...tx.bankAccounts, insert: (row) => tx.bankAccounts.insert({ ...row, party_address: null }) },
    })),
    caughtBy: ["bank-accounts.create-and-read"],
  },
  {
    bug: "reports every profile's owner as live, deleted entities and recipients too",
    // Every read of profiles in use has the bug: by themselves, with their company, with their payment.
    factory: withFault((tx) => {
      const live = (uses: ReadonlyArray<ProfileInUse>) => uses.map((use) => ({ ...use, owner_live: true }))
      return {
        ...tx,
        paymentProfiles: {
          ...tx.paymentProfiles,
          findInUse: async (companyId, ids) => live(await tx.paymentProfiles.findInUse(companyId, ids)),
        },
        companies: {
          ...tx.companies,
          findWithProfilesInUse: async (workspaceId, id, ids) => {
            const found = await tx.companies.findWithProfilesInUse(workspaceId, id, ids)
            return found && { ...found, profiles: live(found.profiles) }
          },
          findWithQuoteInUse: async (workspaceId, id, quoteId) => {
            const found = await tx.companies.findWithQuoteInUse(workspaceId, id, quoteId)
            return found && { ...found, profiles: live(found.profiles) }
          },
        },
      }
    }),
    caughtBy: ["quotes.profile-rules"],
  },
  {
    bug: "leaves a finished job in the queue",
    factory: requeueFinishedJobs,
    caughtBy: ["jobs.run-once"],
  },
  {
    bug: "queues a failed job again at once, ignoring its retry time",
    factory: async () =>
      createMemoryStorage({
        plantInJobTable: (table) => ({
          ...table,
          retry: (id, change) => table.retry(id, { ...change, run_at: "1970-01-01T00:00:00.000Z" }),
        }),
      }),
    caughtBy: ["jobs.retry-and-fail"],
  },
  {
    bug: "gives a job up at its first failure",
    factory: async () =>
      createMemoryStorage({
        plantInJobTable: (table) => ({ ...table, retry: (id, change) => table.giveUp(id, change) }),
      }),
    caughtBy: ["jobs.retry-and-fail"],
  },
  {
    bug: "queues a second job with the key of one that waits",
    factory: withFault((tx) => ({
      ...tx,
      jobs: { ...tx.jobs, enqueue: (job) => tx.jobs.enqueue({ ...job, key: null }) },
    })),
    caughtBy: ["jobs.run-once"],
  },
  {
    bug: "leaves a workspace's jobs where they were when its test clock moves",
    factory: withFault((tx) => ({ ...tx, jobs: { ...tx.jobs, bringForward: async () => {} } })),
    caughtBy: ["test-clocks.jobs"],
  },
  {
    bug: "sets a test clock's offset to the last advance instead of adding it",
    factory: withFault((tx) => ({
      ...tx,
      testClocks: {
        ...tx.testClocks,
        advance: async (workspaceId, ms) => {
          const offset = await tx.testClocks.offsetOf(workspaceId)
          await tx.testClocks.advance(workspaceId, ms - offset)
          return ms
        },
      },
    })),
    caughtBy: ["test-clocks.per-workspace"],
  },
  {
    bug: "replaces a workspace's trusted-domain configuration whole, new id and creation time included",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          trustedDomainConfigs: {
            ...tx.trustedDomainConfigs,
            upsert: async (row) => {
              draft.trustedDomainConfigs.set(row.workspace_id, row)
              return row
            },
          },
        }),
      }),
    caughtBy: ["trusted-domains.one-per-workspace"],
  },
  {
    bug: "finds the first trusted-domain configuration stored, whichever workspace it is of",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          trustedDomainConfigs: {
            ...tx.trustedDomainConfigs,
            find: async () => [...draft.trustedDomainConfigs.values()][0],
          },
        }),
      }),
    caughtBy: ["trusted-domains.one-per-workspace"],
  },
  {
    bug: "counts a payment drawing on a funding account whatever its status (a completed one keeps the account)",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          payments: {
            ...tx.payments,
            anyFromProfiles: async (companyId, ids) =>
              [...draft.payments.values()].some((p) => p.company_id === companyId && ids.includes(p.from_profile_id)),
          },
        }),
      }),
    caughtBy: ["funding-accounts.list-and-remove"],
  },
  {
    bug: "moves a payment profile's status whatever it was (no compare)",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          paymentProfiles: {
            ...tx.paymentProfiles,
            compareAndSetStatus: async (companyId, id, _from, to, updatedAt) => {
              const row = draft.paymentProfiles.get(id)
              if (row === undefined || row.company_id !== companyId) return undefined
              const next = { ...row, status: to, updated_at: updatedAt }
              draft.paymentProfiles.set(id, next)
              return next
            },
          },
        }),
      }),
    caughtBy: ["funding-accounts.list-and-remove"],
  },
  {
    bug: "writes events outside the transaction (a rolled-back change keeps its event)",
    factory: async () => {
      const storage = createMemoryStorage()
      const outbox: Array<EventRecord> = []
      return {
        ...storage,
        // The outbox is where this adapter keeps its events: the reader finds them there.
        committed: () => ({ ...storage.committed(), events: new Map(outbox.map((row) => [row.id, row])) }),
        transaction: (work) =>
          storage.transaction((tx) =>
            work({
              ...tx,
              events: {
                ...tx.events,
                append: async (row) => void outbox.push(row),
                appendListingEndpoints: async (row) => {
                  outbox.push(row)
                  return tx.webhookEndpoints.listActive(row.company_id)
                },
              },
            }),
          ),
      }
    },
    caughtBy: ["events.outbox"],
  },
  {
    bug: "lists events by id alone, leaving out created_at (an event stamped later by a workspace's clock is listed as older)",
    factory: withFault((tx) => ({
      ...tx,
      events: {
        ...tx.events,
        list: async (workspaceId, filter, window) => {
          const all = await tx.events.list(workspaceId, filter, { offset: 0, limit: 1e6 })
          const rows = [...all.rows].sort((a, b) => (a.id < b.id ? 1 : -1))
          return { rows: rows.slice(window.offset, window.offset + window.limit), total: all.total }
        },
      },
    })),
    caughtBy: ["events.read-and-filter"],
  },
  {
    bug: "takes created_before as inclusive",
    factory: withFault((tx) => ({
      ...tx,
      events: {
        ...tx.events,
        list: async (workspaceId, filter, window) => {
          const { createdBefore, ...rest } = filter
          if (createdBefore === undefined) return tx.events.list(workspaceId, filter, window)
          const all = await tx.events.list(workspaceId, rest, { offset: 0, limit: 1e6 })
          const rows = all.rows.filter((row) => row.created_at <= createdBefore)
          return { rows: rows.slice(window.offset, window.offset + window.limit), total: rows.length }
        },
      },
    })),
    caughtBy: ["events.read-and-filter"],
  },
  {
    bug: "lists rows newest first",
    factory: withFault((tx) => ({
      ...tx,
      recipients: {
        ...tx.recipients,
        listActive: async (id, window) => {
          const slice = await tx.recipients.listActive(id, window)
          return { ...slice, rows: [...slice.rows].reverse() }
        },
      },
    })),
    caughtBy: ["recipients.create-and-get", "model.companies-entities-recipients"],
  },
  {
    bug: "reads timestamps back without milliseconds",
    factory: withFault((tx) => ({
      ...tx,
      companies: {
        ...tx.companies,
        find: async (workspaceId, id) => {
          const row = await tx.companies.find(workspaceId, id)
          return row && { ...row, created_at: dropMilliseconds(row.created_at) }
        },
      },
    })),
    caughtBy: ["companies.create-and-get"],
  },
  {
    bug: "stores a null email as an empty string",
    factory: withFault((tx) => ({
      ...tx,
      recipients: { ...tx.recipients, insert: (row) => tx.recipients.insert({ ...row, email: row.email ?? "" }) },
    })),
    caughtBy: ["recipients.create-and-get"],
  },
  {
    bug: "says it marked an entity's integration active without writing it",
    factory: withFault((tx) => ({
      ...tx,
      entities: {
        ...tx.entities,
        markIntegrationActive: async (companyId, id) => (await tx.entities.findActive(companyId, id)) !== undefined,
      },
    })),
    caughtBy: [
      "entities.active-integration",
      "companies.active-integration",
      "features.active-integration",
      "quotes.cross-currency-needs-integration",
    ],
  },
  {
    bug: "writes every column of an entity on update, so a stale row clears its integration flag",
    factory: withFault((tx) => ({
      ...tx,
      entities: {
        ...tx.entities,
        update: async (row) => {
          if (row.deleted_at !== null) return tx.entities.update(row)
          // The port offers no write of the flag but `markIntegrationActive`: replace the row
          // whole instead, by retiring it and inserting the given one under the same id.
          await tx.entities.update({ ...row, deleted_at: row.updated_at })
          await tx.entities.insertIfNoneActive(row)
        },
      },
    })),
    caughtBy: ["features.active-integration"],
  },
  {
    bug: "says it inserted a feature the entity already had (no unique index)",
    factory: withFault((tx) => ({
      ...tx,
      features: {
        ...tx.features,
        insertOrGet: async (row) => {
          const outcome = await tx.features.insertOrGet(row)
          return outcome.inserted ? outcome : { inserted: true, feature: row }
        },
      },
    })),
    caughtBy: ["features.enable-and-list", "concurrency.feature-enable"],
  },
  {
    bug: "moves a feature's status without checking the status it moves from",
    factory: withFault((tx) => ({
      ...tx,
      features: {
        ...tx.features,
        compareAndSetStatus: async (id, from, to, updatedAt) => {
          for (const status of [from, "CREATED", "SUBMITTED", "ACTIVE", "ACTION_REQUIRED"] as const) {
            const moved = await tx.features.compareAndSetStatus(id, status, to, updatedAt)
            if (moved !== undefined) return moved
          }
          return undefined
        },
      },
    })),
    caughtBy: ["features.status-machine", "concurrency.feature-status"],
  },
  {
    bug: "returns one row more than the page size",
    factory: withFault((tx) => ({
      ...tx,
      recipients: {
        ...tx.recipients,
        listActive: (id, window) => tx.recipients.listActive(id, { ...window, limit: window.limit + 1 }),
      },
      payments: {
        ...tx.payments,
        list: (id, filter, window) => tx.payments.list(id, filter, { ...window, limit: window.limit + 1 }),
      },
    })),
    caughtBy: ["paging.recipients", "paging.payments"],
  },
  {
    bug: "returns one row more than the page size of bank accounts",
    factory: withFault((tx) => ({
      ...tx,
      bankAccounts: {
        ...tx.bankAccounts,
        listByCompany: (id, window) => tx.bankAccounts.listByCompany(id, { ...window, limit: window.limit + 1 }),
      },
    })),
    caughtBy: ["paging.bank-accounts"],
  },
  {
    bug: "returns one row more than the page size of companies and entities",
    factory: withFault((tx) => ({
      ...tx,
      companies: {
        ...tx.companies,
        listActive: (id, window) => tx.companies.listActive(id, { ...window, limit: window.limit + 1 }),
      },
      entities: {
        ...tx.entities,
        listActive: (id, window) => tx.entities.listActive(id, { ...window, limit: window.limit + 1 }),
      },
    })),
    caughtBy: ["paging.companies", "paging.entities"],
  },
  {
    bug: "looks a workspace up by name with LIKE (case-insensitive, `_` and `%` as wildcards)",
    factory: likeWorkspaceLookup,
    caughtBy: ["lookups.workspace-name"],
  },
  {
    bug: "finds a workspace by name ignoring case (as an operator's `keys list --workspace` would then list another's keys)",
    factory: withFault((tx) => ({
      ...tx,
      workspaces: {
        ...tx.workspaces,
        findByName: async (name) => {
          const exact = await tx.workspaces.findByName(name)
          if (exact !== undefined) return exact
          const folded = name.toLowerCase()
          for (const candidate of [folded, name.toUpperCase()]) {
            const found = candidate === name ? undefined : await tx.workspaces.findByName(candidate)
            if (found !== undefined) return found
          }
          return undefined
        },
      },
    })),
    caughtBy: ["lookups.workspace-name"],
  },
  {
    bug: "stamps rows with the wall clock instead of the time the engine passed",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        compareAndSetStatus: (id, from, to, change) =>
          tx.payments.compareAndSetStatus(id, from, to, { ...change, updated_at: new Date().toISOString() }),
      },
      recipients: {
        ...tx.recipients,
        insert: (row) => {
          const now = new Date().toISOString()
          return tx.recipients.insert({ ...row, created_at: now, updated_at: now })
        },
      },
    })),
    caughtBy: ["timestamps.stored-as-given"],
  },
  {
    bug: "stamps a feature's status change with the wall clock",
    factory: withFault((tx) => ({
      ...tx,
      features: {
        ...tx.features,
        compareAndSetStatus: (id, from, to) => tx.features.compareAndSetStatus(id, from, to, new Date().toISOString()),
      },
    })),
    caughtBy: ["timestamps.stored-as-given"],
  },
  {
    bug: "lists ids in a language's order (case and punctuation ignored first) instead of byte order",
    factory: withFault((tx) => ({
      ...tx,
      companies: {
        ...tx.companies,
        listActive: async (id, window) => {
          const all = await tx.companies.listActive(id, { offset: 0, limit: Number.MAX_SAFE_INTEGER })
          const rows = [...all.rows].sort((a, b) => a.id.localeCompare(b.id, "en"))
          return { rows: rows.slice(window.offset, window.offset + window.limit), total: all.total }
        },
      },
    })),
    caughtBy: ["paging.id-order"],
  },
  {
    bug: "rotates a key's secret without checking that it replaces the secret the rotation read",
    factory: withFault((tx) => ({
      ...tx,
      apiKeys: {
        ...tx.apiKeys,
        rotateSecret: async (id, _currentHash, rotation) => {
          const row = await tx.apiKeys.findById(id)
          return row === undefined ? undefined : tx.apiKeys.rotateSecret(id, row.secret_hash, rotation)
        },
      },
    })),
    caughtBy: ["access.key-lifecycle"],
  },
  {
    bug: "stamps a revoked key again when it is revoked a second time",
    factory: withFault((tx) => ({
      ...tx,
      apiKeys: {
        ...tx.apiKeys,
        revoke: async (id, revokedAt) => {
          const row = await tx.apiKeys.findById(id)
          if (row?.revoked_at === null) return tx.apiKeys.revoke(id, revokedAt)
          if (row === undefined) return undefined
          return { ...row, revoked_at: revokedAt }
        },
      },
    })),
    caughtBy: ["access.key-lifecycle"],
  },
  {
    bug: "lists every workspace's keys when asked for one workspace's",
    factory: withFault((tx) => ({
      ...tx,
      apiKeys: { ...tx.apiKeys, list: () => tx.apiKeys.list(undefined) },
    })),
    caughtBy: ["access.key-lifecycle"],
  },
  {
    bug: "lets a second claim of an idempotency key through",
    factory: withFault((tx) => ({
      ...tx,
      idempotency: {
        ...tx.idempotency,
        claim: async (row) => {
          const claim = await tx.idempotency.claim(row)
          if (!claim.claimed) await tx.idempotency.replace(row)
          return { claimed: true }
        },
      },
    })),
    caughtBy: ["idempotency.in-flight", "idempotency.replay", "concurrency.idempotency-claim"],
  },
  {
    bug: "replaces an idempotency record whoever owns it now",
    factory: withFault((tx) => ({
      ...tx,
      idempotency: {
        ...tx.idempotency,
        replaceIfOwner: async (row) => {
          await tx.idempotency.replace(row)
          return true
        },
      },
    })),
    caughtBy: ["idempotency.owner-compare-and-set"],
  },
  {
    bug: "keeps an idempotency record without the journal written into it",
    factory: withFault((tx) => ({
      ...tx,
      idempotency: {
        ...tx.idempotency,
        replaceIfOwner: (row, owner) => tx.idempotency.replaceIfOwner({ ...row, journal: null }, owner),
      },
    })),
    caughtBy: ["idempotency.journal", "idempotency.owner-compare-and-set"],
  },
  {
    bug: "holds a payment in a batch that already holds its limit",
    factory: withBatchFault((batches) => ({
      hold: (id, _limit, updatedAt) => batches.hold(id, Number.MAX_SAFE_INTEGER, updatedAt),
    })),
    caughtBy: ["batches.counts"],
  },
  {
    bug: "holds a payment in a batch that is no longer building",
    factory: withBatchFault((_batches, draft) => ({
      hold: async (id, limit, updatedAt) => {
        const row = draft.paymentBatches.get(id)
        if (row === undefined || row.total_count >= limit) return undefined
        return putBatch(draft, { ...row, total_count: row.total_count + 1, updated_at: updatedAt })
      },
    })),
    caughtBy: ["batches.counts"],
  },
  {
    bug: "releases a held payment of a batch that holds none (its count goes below zero)",
    factory: withBatchFault((_batches, draft) => ({
      release: async (id, updatedAt) => {
        const row = draft.paymentBatches.get(id)
        if (row === undefined || row.status !== "building") return undefined
        return putBatch(draft, { ...row, total_count: row.total_count - 1, updated_at: updatedAt })
      },
    })),
    caughtBy: ["batches.counts"],
  },
  {
    bug: "answers a release with the batch one smaller without writing it",
    factory: withBatchFault((_batches, draft) => ({
      release: async (id, updatedAt) => {
        const row = draft.paymentBatches.get(id)
        if (row === undefined || row.status !== "building" || row.total_count === 0) return undefined
        return { ...row, total_count: row.total_count - 1, updated_at: updatedAt }
      },
    })),
    caughtBy: ["batches.counts", "batches.process-and-complete", "model.payment-batches"],
  },
  {
    bug: "counts an outcome in a batch that is still building",
    factory: withBatchFault((_batches, draft) => ({
      recordOutcomes: async (id, outcomes, updatedAt) => {
        const row = draft.paymentBatches.get(id)
        if (row === undefined || (row.status !== "processing" && row.status !== "building")) return undefined
        const counted = {
          succeeded_count: row.succeeded_count + outcomes.succeeded,
          failed_count: row.failed_count + outcomes.failed,
        }
        return putBatch(draft, { ...row, ...counted, updated_at: updatedAt })
      },
    })),
    caughtBy: ["batches.counts"],
  },
  {
    bug: "moves a batch's status without checking the status it moves from",
    factory: withBatchFault((batches, draft) => ({
      compareAndSetStatus: async (id, _from, to, change) => {
        const row = draft.paymentBatches.get(id)
        return row === undefined ? undefined : batches.compareAndSetStatus(id, row.status, to, change)
      },
    })),
    caughtBy: ["batches.counts"],
  },
  {
    bug: "clears the times a batch's status change leaves out (writes undefined as null)",
    factory: withBatchFault((batches) => ({
      compareAndSetStatus: (id, from, to, change) =>
        batches.compareAndSetStatus(id, from, to, {
          submitted_at: null,
          completed_at: null,
          next_slot_at: null,
          ...Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)),
          updated_at: change.updated_at,
        }),
    })),
    caughtBy: ["batches.counts", "batches.process-and-complete"],
  },
  {
    bug: "stamps a held payment's count with the wall clock",
    factory: withBatchFault((batches) => ({
      hold: (id, limit) => batches.hold(id, limit, new Date().toISOString()),
    })),
    caughtBy: ["batches.counts", "batches.process-and-complete"],
  },
  {
    bug: "treats a batch list's createdBefore as inclusive",
    factory: withBatchFault((batches) => ({
      list: (companyId, filter, window) =>
        batches.list(
          companyId,
          filter.createdBefore === undefined ? filter : { ...filter, createdBefore: plusMs(filter.createdBefore, 1) },
          window,
        ),
    })),
    caughtBy: ["batches.list-filters"],
  },
  {
    bug: "treats a batch list's createdFrom as exclusive",
    factory: withBatchFault((batches) => ({
      list: (companyId, filter, window) =>
        batches.list(
          companyId,
          filter.createdFrom === undefined ? filter : { ...filter, createdFrom: plusMs(filter.createdFrom, 1) },
          window,
        ),
    })),
    caughtBy: ["batches.list-filters"],
  },
  {
    bug: "returns one batch more than the page size",
    factory: withBatchFault((batches) => ({
      list: (companyId, filter, window) => batches.list(companyId, filter, { ...window, limit: window.limit + 1 }),
    })),
    caughtBy: ["batches.list-filters"],
  },
  {
    bug: "keeps one batch per idempotency key across companies",
    factory: withBatchFault((batches, draft) => ({
      insertOrGet: async (row) => {
        const taken = [...draft.paymentBatches.values()].find(
          (b) => row.idempotency_key !== null && b.idempotency_key === row.idempotency_key,
        )
        return taken === undefined ? batches.insertOrGet(row) : { inserted: false, batch: taken }
      },
    })),
    caughtBy: ["batches.insert-or-get"],
  },
  {
    bug: "treats batches without an idempotency key as the same key",
    factory: withBatchFault((batches, draft) => ({
      insertOrGet: async (row) => {
        const taken = [...draft.paymentBatches.values()].find(
          (b) => b.company_id === row.company_id && b.idempotency_key === row.idempotency_key,
        )
        return taken === undefined ? batches.insertOrGet(row) : { inserted: false, batch: taken }
      },
    })),
    caughtBy: ["batches.insert-or-get"],
  },
  {
    bug: "finds another company's batch",
    factory: withBatchFault((batches) => ({ find: (_companyId, id) => batches.findById(id) })),
    caughtBy: ["batches.insert-or-get"],
  },
  {
    bug: "hands out a start slot without moving the batch's next one (the same slot twice)",
    factory: withBatchFault((_batches, draft) => ({
      takeSlot: async (id, now) => {
        const next = draft.paymentBatches.get(id)?.next_slot_at ?? null
        return next !== null && next > now ? next : now
      },
    })),
    caughtBy: ["batches.start-slots", "batches.process-and-complete"],
  },
  {
    bug: "counts a batch's next start slot from now instead of from the slot it hands out",
    factory: withBatchFault((_batches, draft) => ({
      takeSlot: async (id, now, intervalMs) => {
        const row = draft.paymentBatches.get(id)
        if (row === undefined) throw new Error(`batch ${id} not found for a start slot`)
        const slot = row.next_slot_at !== null && row.next_slot_at > now ? row.next_slot_at : now
        putBatch(draft, { ...row, next_slot_at: plusMs(now, intervalMs) })
        return slot
      },
    })),
    caughtBy: ["batches.start-slots", "batches.process-and-complete"],
  },
  {
    bug: "ignores the status filter of a batch's payments",
    factory: withFault((tx) => ({
      ...tx,
      payments: { ...tx.payments, listInBatch: (batchId, limit) => tx.payments.listInBatch(batchId, limit) },
    })),
    caughtBy: ["batches.payments-in-batch", "batches.process-and-complete", "model.payment-batches"],
  },
  {
    bug: "gives a batch's payments past the limit asked for",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        listInBatch: (batchId, _limit, status) => tx.payments.listInBatch(batchId, Number.MAX_SAFE_INTEGER, status),
      },
    })),
    caughtBy: ["batches.payments-in-batch"],
  },
  {
    bug: "lists inactive webhook endpoints as active",
    factory: withFault((tx) => ({
      ...tx,
      webhookEndpoints: {
        ...tx.webhookEndpoints,
        listActive: async (companyId) =>
          (await tx.webhookEndpoints.list(companyId, {}, { offset: 0, limit: 1000 })).rows,
      },
    })),
    caughtBy: ["webhook-endpoints.list-active"],
  },
  {
    bug: "replaces an endpoint's secret whatever secret it has",
    factory: withFault((tx) => ({
      ...tx,
      webhookEndpoints: {
        ...tx.webhookEndpoints,
        replaceSecret: async (workspaceId, id, _from, change) => {
          const row = await tx.webhookEndpoints.find(workspaceId, id)
          return row === undefined ? undefined : tx.webhookEndpoints.replaceSecret(workspaceId, id, row.secret, change)
        },
      },
    })),
    caughtBy: ["webhook-endpoints.replace-secret"],
  },
  {
    bug: "writes an endpoint's circuit but drops until when it is open",
    factory: withFault((tx) => ({
      ...tx,
      webhookEndpoints: {
        ...tx.webhookEndpoints,
        recordCircuit: (workspaceId, id, circuit) =>
          tx.webhookEndpoints.recordCircuit(workspaceId, id, { ...circuit, circuit_open_until: null }),
      },
    })),
    caughtBy: ["webhook-endpoints.record-circuit"],
  },
  {
    bug: "writes an endpoint's circuit but drops since when it fails",
    factory: withFault((tx) => ({
      ...tx,
      webhookEndpoints: {
        ...tx.webhookEndpoints,
        recordCircuit: (workspaceId, id, circuit) =>
          tx.webhookEndpoints.recordCircuit(workspaceId, id, { ...circuit, failing_since: null }),
      },
    })),
    caughtBy: ["webhook-endpoints.record-circuit"],
  },
  {
    bug: "disables an endpoint a user already turned off",
    factory: withFault((tx) => ({
      ...tx,
      webhookEndpoints: {
        ...tx.webhookEndpoints,
        disable: (workspaceId, id, change) => tx.webhookEndpoints.update(workspaceId, id, { ...change, active: false }),
      },
    })),
    caughtBy: ["webhook-endpoints.disable"],
  },
  {
    bug: "updates an endpoint but keeps the reason it was disabled",
    factory: withFault((tx) => ({
      ...tx,
      webhookEndpoints: {
        ...tx.webhookEndpoints,
        update: (workspaceId, id, { disabled_reason: _reason, disabled_at: _at, ...change }) =>
          tx.webhookEndpoints.update(workspaceId, id, change),
      },
    })),
    caughtBy: ["webhook-endpoints.update-toggle-delete"],
  },
  {
    bug: "lists failed deliveries created at the end of the window too",
    factory: withFault((tx) => ({
      ...tx,
      webhookDeliveries: {
        ...tx.webhookDeliveries,
        listFailed: (endpointId, window, afterId, limit) =>
          tx.webhookDeliveries.listFailed(
            endpointId,
            { ...window, createdBefore: plusMs(window.createdBefore, 1) },
            afterId,
            limit,
          ),
      },
    })),
    caughtBy: ["webhook-deliveries.list-failed"],
  },
  {
    bug: "advances a recovery from whatever cursor it has",
    factory: withFault((tx) => ({
      ...tx,
      webhookRecoveries: {
        ...tx.webhookRecoveries,
        advance: async (workspaceId, id, from, progress) => {
          const row = await tx.webhookRecoveries.find(workspaceId, id)
          return row === undefined || row.status !== from.status
            ? undefined
            : tx.webhookRecoveries.advance(workspaceId, id, row, progress)
        },
      },
    })),
    caughtBy: ["webhook-recoveries.store-and-advance"],
  },
  {
    bug: "counts a workspace's deliveries in lanes instead of its lanes",
    factory: withFault((tx) => ({
      ...tx,
      webhookDeliveries: {
        ...tx.webhookDeliveries,
        findForLane: async (id) => {
          const start = await tx.webhookDeliveries.findForLane(id)
          return start === undefined || start.workspaceLanes === 0
            ? start
            : { ...start, workspaceLanes: start.workspaceLanes + 1 }
        },
      },
    })),
    caughtBy: ["webhook-deliveries.find-for-lane"],
  },
  {
    bug: "stores a second delivery of one event to one endpoint",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          webhookDeliveries: {
            ...tx.webhookDeliveries,
            insertIfNew: async (row) => {
              draft.webhookDeliveries.set(row.id, Object.freeze({ ...row }))
              return true
            },
          },
        }),
      }),
    caughtBy: ["webhook-deliveries.store-list-and-move"],
  },
  {
    bug: "moves a delivery whatever attempt count it has",
    factory: withFault((tx) => ({
      ...tx,
      webhookDeliveries: {
        ...tx.webhookDeliveries,
        compareAndSet: async (id, from, change) => {
          const row = await tx.webhookDeliveries.findById(id)
          return row === undefined || row.status !== from.status
            ? undefined
            : tx.webhookDeliveries.compareAndSet(id, row, change)
        },
      },
    })),
    caughtBy: ["webhook-deliveries.store-list-and-move"],
  },
  {
    bug: "lets a lane take a delivery another lane holds",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          webhookDeliveries: {
            ...tx.webhookDeliveries,
            // The first delivery taken whoever holds it.
            takeLane: async (laneId, endpointId, now, limits) => {
              const head = draft.webhookDeliveries.get(laneId)
              if (head === undefined || head.status !== "pending") return []
              draft.webhookDeliveries.set(laneId, Object.freeze({ ...head, lane_id: null }))
              return tx.webhookDeliveries.takeLane(laneId, endpointId, now, limits)
            },
          },
        }),
      }),
    caughtBy: ["webhook-deliveries.lanes"],
  },
  {
    bug: "lists as due the deliveries another lane holds",
    factory: withFault((tx) => ({
      ...tx,
      webhookDeliveries: {
        ...tx.webhookDeliveries,
        listDue: async (endpointId, now, _laneId, limit) =>
          tx.webhookDeliveries.listDue(endpointId, now, "whd_no_lane" as WebhookDeliveryId, limit),
      },
    })),
    caughtBy: ["webhook-deliveries.lanes"],
  },
  {
    bug: "writes a lane's moves whatever attempt count each delivery has",
    factory: withFault((tx) => ({
      ...tx,
      webhookDeliveries: {
        ...tx.webhookDeliveries,
        compareAndSetMany: async (moves) => {
          const rows = await Promise.all(moves.map((m) => tx.webhookDeliveries.findById(m.id)))
          return tx.webhookDeliveries.compareAndSetMany(
            moves.map((m, i) => ({
              ...m,
              from: { status: m.from.status, attempt_count: rows[i]?.attempt_count ?? 0 },
            })),
          )
        },
      },
    })),
    caughtBy: ["webhook-deliveries.lanes"],
  },
  {
    bug: "removes jobs by key that have already run once",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          jobs: {
            ...tx.jobs,
            removeUnstarted: async (keys) => {
              for (const job of draft.jobs.values())
                if (job.key !== null && keys.includes(job.key)) draft.jobs.delete(job.id)
            },
          },
        }),
      }),
    caughtBy: ["jobs.remove-unstarted"],
  },
  {
    bug: "lists an endpoint's deliveries oldest first",
    factory: withFault((tx) => ({
      ...tx,
      webhookDeliveries: {
        ...tx.webhookDeliveries,
        listByEndpoint: async (workspaceId, endpointId, window) => {
          const all = await tx.webhookDeliveries.listByEndpoint(workspaceId, endpointId, { offset: 0, limit: 1e6 })
          return { rows: [...all.rows].reverse().slice(window.offset, window.offset + window.limit), total: all.total }
        },
      },
    })),
    caughtBy: ["webhook-deliveries.store-list-and-move"],
  },
  {
    bug: "finds a lane's payments in any batch",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        findInBatch: async (_batchId, ids) => {
          const rows = await Promise.all(ids.map((id) => tx.payments.findById(id)))
          return rows.flatMap((row) => (row === undefined ? [] : [row])).sort((a, b) => (a.id < b.id ? -1 : 1))
        },
      },
    })),
    caughtBy: ["batches.lane-reads-and-moves"],
  },
  {
    bug: "gives a lane's payments in the order they were asked for",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        findInBatch: async (batchId, ids) => {
          const found = await tx.payments.findInBatch(batchId, ids)
          return ids.flatMap((id) => found.filter((row) => row.id === id))
        },
      },
    })),
    caughtBy: ["batches.lane-reads-and-moves"],
  },
  {
    bug: "moves many payments without checking the status they move from",
    factory: withFault((tx) => ({
      ...tx,
      payments: {
        ...tx.payments,
        compareAndSetStatuses: async (ids, _from, to, change) => {
          const moved = []
          for (const id of ids) {
            const row = await tx.payments.findById(id)
            if (row === undefined) continue
            const next = await tx.payments.compareAndSetStatus(id, row.status, to, change)
            if (next !== undefined) moved.push(next)
          }
          return moved.sort((a, b) => (a.id < b.id ? -1 : 1))
        },
      },
    })),
    caughtBy: ["batches.lane-reads-and-moves"],
  },
  {
    bug: "finds quotes of every company",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          quotes: {
            ...tx.quotes,
            findMany: async (_companyId, ids) =>
              ids.flatMap((id) => {
                const row = draft.quotes.get(id)
                return row === undefined ? [] : [row]
              }),
          },
        }),
      }),
    caughtBy: ["batches.lane-reads-and-moves"],
  },
  {
    bug: "points a payment at a new quote whatever its status",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          payments: {
            ...tx.payments,
            replaceQuote: async (id, from, to, updatedAt) => {
              const row = draft.payments.get(id)
              if (row === undefined || row.quote_id !== from) return undefined
              const moved = Object.freeze({ ...row, quote_id: to, updated_at: updatedAt })
              draft.payments.set(id, moved)
              return moved
            },
          },
        }),
      }),
    caughtBy: ["batches.payments-in-batch"],
  },
  {
    bug: "finds a webhook endpoint by id in any workspace",
    factory: withEndpointFault((_endpoints, draft) => ({ find: async (_ws, id) => draft.webhookEndpoints.get(id) })),
    caughtBy: ["webhook-endpoints.insert-and-find"],
  },
  {
    bug: "finds a deleted webhook endpoint",
    factory: withEndpointFault((_endpoints, draft) => ({
      find: async (ws, id) => {
        const row = draft.webhookEndpoints.get(id)
        return row?.workspace_id === ws ? row : undefined
      },
    })),
    caughtBy: ["webhook-endpoints.insert-and-find", "webhook-endpoints.update-toggle-delete"],
  },
  {
    bug: "ignores the active filter of the endpoint list",
    factory: withEndpointFault((endpoints) => ({
      list: (companyId, _filter, window) => endpoints.list(companyId, {}, window),
    })),
    caughtBy: ["webhook-endpoints.list"],
  },
  {
    bug: "counts only the rows of the window as the endpoint list's total",
    factory: withEndpointFault((endpoints) => ({
      list: async (companyId, filter, window) => {
        const slice = await endpoints.list(companyId, filter, window)
        return { rows: slice.rows, total: slice.rows.length }
      },
    })),
    caughtBy: ["webhook-endpoints.list"],
  },
  {
    bug: "sets an endpoint active on toggle instead of flipping it",
    factory: withEndpointFault((endpoints) => ({
      toggle: (ws, id, updatedAt) => endpoints.update(ws, id, { active: true, updated_at: updatedAt }),
    })),
    caughtBy: ["webhook-endpoints.update-toggle-delete"],
  },
  {
    bug: "updates a webhook endpoint of another workspace",
    factory: withEndpointFault((endpoints, draft) => ({
      update: (_ws, id, change) => {
        const row = draft.webhookEndpoints.get(id)
        return row === undefined ? Promise.resolve(undefined) : endpoints.update(row.workspace_id, id, change)
      },
    })),
    caughtBy: ["webhook-endpoints.update-toggle-delete"],
  },
  {
    bug: "answers true for deleting an endpoint already deleted",
    factory: withEndpointFault((endpoints) => ({
      delete: async (ws, id, at) => {
        await endpoints.delete(ws, id, at)
        return true
      },
    })),
    caughtBy: ["webhook-endpoints.update-toggle-delete"],
  },
  {
    bug: "stores the endpoint's url when an update did not name it",
    factory: withEndpointFault((endpoints) => ({
      update: (ws, id, change) => endpoints.update(ws, id, { url: "https://example.com/default", ...change }),
    })),
    caughtBy: ["webhook-endpoints.update-toggle-delete"],
  },
  {
    bug: "finds an entity's onboarding from any workspace",
    factory: withOnboardingFault((_ports, draft) => ({
      onboardings: {
        findByEntity: async (_ws, entityId) => [...draft.onboardings.values()].find((r) => r.entity_id === entityId),
      },
    })),
    caughtBy: ["onboardings.insert-find-update"],
  },
  {
    bug: "overwrites an entity's onboarding on a second insert",
    factory: withOnboardingFault((_ports, draft) => ({
      onboardings: {
        insertIfNone: async (row) => {
          for (const [id, other] of draft.onboardings)
            if (other.entity_id === row.entity_id) draft.onboardings.delete(id)
          draft.onboardings.set(row.id, Object.freeze({ ...row }))
          return true
        },
      },
    })),
    caughtBy: ["onboardings.insert-find-update"],
  },
  {
    bug: "writes a feature's status onto the onboarding of another workspace",
    factory: withOnboardingFault((ports, draft) => ({
      onboardings: {
        setStatus: async (_ws, entityId, change) => {
          const row = [...draft.onboardings.values()].find((r) => r.entity_id === entityId)
          return row === undefined ? false : ports.onboardings.setStatus(row.workspace_id, entityId, change)
        },
      },
    })),
    caughtBy: ["onboardings.insert-find-update"],
  },
  {
    bug: "finds a person under any entity of the workspace",
    factory: withOnboardingFault((_ports, draft) => ({
      persons: {
        find: async (ws, _entityId, id) => {
          const row = draft.onboardingPersons.get(id)
          return row?.workspace_id === ws ? row : undefined
        },
      },
    })),
    caughtBy: ["onboardings.persons"],
  },
  {
    bug: "counts only the rows of the window as the person list's total",
    factory: withOnboardingFault((ports) => ({
      persons: {
        list: async (ws, entityId, window) => {
          const slice = await ports.persons.list(ws, entityId, window)
          return { rows: slice.rows, total: slice.rows.length }
        },
      },
    })),
    caughtBy: ["onboardings.persons"],
  },
  {
    bug: "answers true for deleting a person already deleted",
    factory: withOnboardingFault((ports) => ({
      persons: {
        delete: async (ws, entityId, id) => {
          await ports.persons.delete(ws, entityId, id)
          return true
        },
      },
    })),
    caughtBy: ["onboardings.persons"],
  },
  {
    bug: "lists every person of the workspace as the entity's",
    factory: withOnboardingFault((_ports, draft) => ({
      persons: {
        listAll: async (ws) =>
          [...draft.onboardingPersons.values()]
            .filter((r) => r.workspace_id === ws)
            .sort((a, b) => (a.id < b.id ? -1 : 1)),
      },
    })),
    caughtBy: ["onboardings.persons"],
  },
  {
    bug: "finds an attachment under any entity of the workspace",
    factory: withOnboardingFault((_ports, draft) => ({
      attachments: {
        find: async (ws, _entityId, id) => {
          const row = draft.onboardingAttachments.get(id)
          return row?.workspace_id === ws ? row : undefined
        },
      },
    })),
    caughtBy: ["onboardings.attachments"],
  },
  {
    bug: "deletes an attachment of another workspace",
    factory: withOnboardingFault((ports, draft) => ({
      attachments: {
        delete: async (_ws, entityId, id) => {
          const row = draft.onboardingAttachments.get(id)
          return row === undefined ? false : ports.attachments.delete(row.workspace_id, entityId, id)
        },
      },
    })),
    caughtBy: ["onboardings.attachments"],
  },
  {
    bug: "lists attachments in the order they were inserted",
    factory: withOnboardingFault((_ports, draft) => ({
      attachments: {
        list: async (ws, entityId, window) => {
          const mine = [...draft.onboardingAttachments.values()].filter(
            (r) => r.workspace_id === ws && r.entity_id === entityId,
          )
          return { rows: mine.slice(window.offset, window.offset + window.limit), total: mine.length }
        },
      },
    })),
    caughtBy: ["onboardings.attachments"],
  },
  {
    bug: "closes nothing: a closed storage still runs transactions",
    factory: async () => ({ ...createMemoryStorage(), close: async () => {} }),
    caughtBy: ["storage.close"],
  },
  {
    bug: "hands out due jobs lowest id first instead of oldest due first",
    factory: withJobTableFault((table) => ({
      due: async (now, kinds, limit, busyQueues) =>
        [...(await table.due(now, kinds, Number.MAX_SAFE_INTEGER, busyQueues))].sort(byId).slice(0, limit),
    })),
    caughtBy: ["job-table.due"],
  },
  {
    bug: "takes a job due exactly now as not yet due",
    factory: withJobTableFault((table) => ({
      due: (now, kinds, limit, busyQueues) =>
        table.due(new Date(Date.parse(now) - 1).toISOString(), kinds, limit, busyQueues),
    })),
    caughtBy: ["job-table.due"],
  },
  {
    bug: "wakes the runner for a job given up (when to wake next counts every state)",
    factory: withJobTableFault((_table, committedJobs) => ({
      nextRunAt: async (kinds, after) =>
        committedJobs()
          .filter((job) => kinds.includes(job.kind) && job.run_at > after)
          .map((job) => job.run_at)
          .sort()[0],
    })),
    caughtBy: ["job-table.next-run-at"],
  },
  {
    bug: "stamps a taken job with the database's clock instead of the engine's now",
    factory: withJobTableFault((table) => ({
      take: (id, change) => table.take(id, { ...change, updated_at: new Date().toISOString() }),
    })),
    caughtBy: ["job-table.runs-and-stamps"],
  },
  {
    bug: "finds profiles in use two ids a query and drops the last of an odd number",
    factory: withFault((tx) => ({
      ...tx,
      paymentProfiles: {
        ...tx.paymentProfiles,
        findInUse: async (companyId, ids) => {
          const found: ProfileInUse[] = []
          for (let i = 0; i + 1 < ids.length; i += 2) {
            found.push(...(await tx.paymentProfiles.findInUse(companyId, [ids[i]!, ids[i + 1]!])))
          }
          return found
        },
      },
    })),
    caughtBy: ["payment-profiles.find-in-use"],
  },
  {
    bug: "answers the first batch stored with the key, whichever company it is of, when the key is taken",
    factory: withBatchFault((batches, draft) => ({
      insertOrGet: async (row) => {
        const outcome = await batches.insertOrGet(row)
        if (outcome.inserted || row.idempotency_key === null) return outcome
        const [firstOfKey] = [...draft.paymentBatches.values()]
          .filter((batch) => batch.idempotency_key === row.idempotency_key)
          .sort(byId)
        return { inserted: false, batch: firstOfKey ?? outcome.batch }
      },
    })),
    caughtBy: ["batches.insert-or-get"],
  },
  {
    bug: "lists a delivery due exactly now as not yet due",
    factory: withFault((tx) => ({
      ...tx,
      webhookDeliveries: {
        ...tx.webhookDeliveries,
        listDue: (endpointId, now, laneId, limit) =>
          tx.webhookDeliveries.listDue(endpointId, new Date(Date.parse(now) - 1).toISOString(), laneId, limit),
      },
    })),
    caughtBy: ["webhook-deliveries.list-due"],
  },
  {
    bug: "lists delivered and failed deliveries as due (they would be sent again)",
    factory: async () =>
      createMemoryStorage({
        plantInRepositories: (tx, draft) => ({
          ...tx,
          webhookDeliveries: {
            ...tx.webhookDeliveries,
            listDue: async (endpointId, now, laneId, limit) =>
              [...draft.webhookDeliveries.values()]
                .filter(
                  (row) =>
                    row.endpoint_id === endpointId &&
                    row.next_attempt_at !== null &&
                    row.next_attempt_at <= now &&
                    row.id !== laneId &&
                    (row.lane_id === null || row.lane_id === laneId),
                )
                .sort((a, b) =>
                  a.next_attempt_at! < b.next_attempt_at!
                    ? -1
                    : a.next_attempt_at! > b.next_attempt_at!
                      ? 1
                      : byId(a, b),
                )
                .slice(0, limit),
          },
        }),
      }),
    caughtBy: ["webhook-deliveries.list-due"],
  },
  {
    bug: "answers true for deleting a person but leaves the row",
    factory: withOnboardingFault(() => ({ persons: { delete: async () => true } })),
    caughtBy: ["model.onboarding"],
  },
  {
    bug: "writes an onboarding update onto the workspace's first onboarding, whichever entity it is of",
    factory: withOnboardingFault((ports, draft) => ({
      onboardings: {
        update: async (ws, id, change) => {
          const first = [...draft.onboardings.values()]
            .filter((r) => r.workspace_id === ws)
            .sort((a, b) => (a.id < b.id ? -1 : 1))[0]
          return ports.onboardings.update(ws, first?.id ?? id, change)
        },
      },
    })),
    caughtBy: ["model.onboarding"],
  },
  {
    bug: "lists every attachment of the workspace as the entity's",
    factory: withOnboardingFault((_ports, draft) => ({
      attachments: {
        list: async (ws, _entityId, window) => {
          const mine = [...draft.onboardingAttachments.values()]
            .filter((r) => r.workspace_id === ws)
            .sort((a, b) => (a.id < b.id ? -1 : 1))
          return { rows: mine.slice(window.offset, window.offset + window.limit), total: mine.length }
        },
      },
    })),
    caughtBy: ["model.onboarding"],
  },
  {
    bug: "finds a person of another workspace's entity by its id",
    factory: withOnboardingFault((_ports, draft) => ({
      persons: { find: async (_ws, _entityId, id) => draft.onboardingPersons.get(id) },
    })),
    caughtBy: ["model.onboarding"],
  },
  {
    bug: "stamps a new person's row with the wall clock",
    factory: withOnboardingFault((ports) => ({
      persons: {
        insert: (row) => {
          const now = new Date().toISOString()
          return ports.persons.insert({ ...row, created_at: now, updated_at: now })
        },
      },
    })),
    caughtBy: ["timestamps.stored-as-given"],
  },
]

/** The memory storage's job table, planted or not: the suite checks it in the `job-table.*` tests. */
const jobTable = (storage: MemoryStorage) => storage.jobTable

describe("the contract suite fails a broken adapter", () => {
  for (const { bug, factory, caughtBy } of faults) {
    for (const id of caughtBy) {
      it(`${id} catches an adapter that ${bug}`, async () => {
        // A fixed seed: whether a random run meets the bug must not depend on luck.
        await expect(
          runContractTest(id, { factory, reader, jobTable, fastCheck: { seed: 42, numRuns: 200 } }),
        ).rejects.toThrow()
      })
    }
  }

  it("fails, rather than hangs, a test whose job queue never empties", async () => {
    await expect(runContractTest("payments.create-and-execute", { factory: neverSettleJobs, reader })).rejects.toThrow(
      /jobs still due after \d+ runs/,
    )
  })

  it("while the same tests pass on the adapter without the bug", async () => {
    const ids = new Set(faults.flatMap((fault) => fault.caughtBy))
    for (const id of ids) {
      expect(await runContractTest(id, { factory: async () => createMemoryStorage(), reader, jobTable })).toEqual({
        ran: true,
      })
    }
  })
})
