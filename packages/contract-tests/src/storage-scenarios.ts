import type { Awaitable, CompanyId, CompanyRecord, Repositories, Storage, WorkspaceId } from "@payments-engine/core"
import { expect } from "vitest"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { counterIds } from "./test-ports.ts"

const companyRow = (workspaceId: WorkspaceId, id: CompanyId, at: string): CompanyRecord => ({
  id,
  workspace_id: workspaceId,
  name: "Rollback Ltd",
  country: "GB",
  default_currency: "GBP",
  role: "api_client",
  created_at: at,
  updated_at: at,
  deleted_at: null,
})

/** The storage's optional `read`, for the scenarios that require it. */
const readOf =
  (storage: Storage) =>
  <T>(work: (tx: Repositories) => Awaitable<T>): Promise<T> => {
    if (storage.read === undefined) throw new Error("the scenario requires storage.read")
    return storage.read(work)
  }

const readIsOptional = {
  method: "read",
  because: "read is optional: the engine runs its reads in transaction on a storage without it",
} as const

/** The storage port itself: capabilities, transactions and reads. */
export const storageScenarios: ScenarioGroup = {
  title: "storage",
  scenarios: [
    {
      id: "storage.capabilities",
      title: "declares its capabilities",
      run: async ({ storage }) => {
        expect(typeof storage.capabilities.multiProcess).toBe("boolean")
        expect(typeof storage.capabilities.concurrentTransactions).toBe("boolean")
      },
    },
    {
      id: "storage.commit",
      title: "a resolved transaction commits its writes and resolves with the work's value",
      run: async ({ storage, workspace, clock }) => {
        const actor = await workspace()
        const row = companyRow(actor.workspaceId, counterIds().next("cmp"), clock.now().toISOString())
        const value = await storage.transaction(async (tx) => {
          await tx.companies.insert(row)
          return { written: row.id }
        })
        expect(value).toEqual({ written: row.id })
        expect(await storage.transaction((tx) => tx.companies.find(actor.workspaceId, row.id))).toEqual(row)
      },
    },
    {
      id: "storage.rollback",
      title: "a rejected transaction rolls every write back and rejects with the same reason",
      run: async ({ storage, engine, workspace, clock }) => {
        const actor = await workspace()
        const kept = await engine.companies.create(actor, { name: "Kept Inc", country: "US", default_currency: "USD" })
        const ids = counterIds()
        const now = clock.now().toISOString()
        const row = companyRow(actor.workspaceId, ids.next("cmp"), now)
        const reason = new Error("the work failed")
        const outcome = storage.transaction(async (tx) => {
          await tx.companies.insert(row)
          await tx.entities.insertIfNoneActive({
            id: ids.next("ent"),
            company_id: row.id,
            name: "Rolled Back",
            country_alpha2: "GB",
            payment_integration_active: false,
            created_at: now,
            updated_at: now,
            deleted_at: null,
          })
          const current = await tx.companies.find(actor.workspaceId, kept.id)
          if (current) await tx.companies.update({ ...current, name: "Renamed in vain" })
          await tx.idempotency.claim({
            workspace_id: actor.workspaceId,
            key: "rolled-back",
            fingerprint: "f",
            response_status: null,
            response_body: null,
            created_at: now,
            expires_at: now,
            locked_until: null,
            owner: null,
            journal: null,
          })
          throw reason
        })
        await expect(outcome).rejects.toBe(reason)
        const after = await storage.transaction(async (tx) => ({
          inserted: await tx.companies.find(actor.workspaceId, row.id),
          entity: await tx.entities.findActiveOfCompany(row.id),
          kept: await tx.companies.find(actor.workspaceId, kept.id),
          claim: await tx.idempotency.find(actor.workspaceId, "rolled-back"),
        }))
        expect(after).toEqual({ inserted: undefined, entity: undefined, kept: expect.anything(), claim: undefined })
        expect(after.kept?.name).toBe("Kept Inc")
        expect((await engine.companies.list(actor)).data).toEqual([kept])
      },
    },
    {
      id: "storage.read-committed",
      title: "a read sees what earlier transactions committed and resolves with the work's value",
      requires: readIsOptional,
      run: async ({ storage, workspace, clock }) => {
        const read = readOf(storage)
        const actor = await workspace()
        const row = companyRow(actor.workspaceId, counterIds().next("cmp"), clock.now().toISOString())
        const find = (tx: Repositories) => tx.companies.find(actor.workspaceId, row.id)
        expect(await read(find)).toBeUndefined()
        await storage.transaction((tx) => tx.companies.insert(row))
        expect(await read(find)).toEqual(row)
        await storage.transaction((tx) => tx.companies.update({ ...row, name: "Renamed Ltd" }))
        const value = await read(async (tx) => ({ name: (await find(tx))?.name }))
        expect(value).toEqual({ name: "Renamed Ltd" })
      },
    },
    {
      id: "storage.read-rejects",
      title: "a read whose work rejects rejects with the same reason, and the storage goes on",
      requires: readIsOptional,
      run: async ({ storage, workspace, clock }) => {
        const read = readOf(storage)
        const actor = await workspace()
        const row = companyRow(actor.workspaceId, counterIds().next("cmp"), clock.now().toISOString())
        const reason = new Error("the read failed")
        const outcome = read(async (tx) => {
          await tx.companies.find(actor.workspaceId, row.id)
          throw reason
        })
        await expect(outcome).rejects.toBe(reason)
        await storage.transaction((tx) => tx.companies.insert(row))
        expect(await read((tx) => tx.companies.find(actor.workspaceId, row.id))).toEqual(row)
      },
    },
    {
      id: "storage.read-isolated",
      title:
        "a read sees no write of a transaction still open, and where transactions overlap it ends while that transaction is open",
      requires: readIsOptional,
      run: async ({ storage, workspace, clock }) => {
        const read = readOf(storage)
        const actor = await workspace()
        const ids = counterIds()
        const now = clock.now().toISOString()
        const kept = companyRow(actor.workspaceId, ids.next("cmp"), now)
        const added = companyRow(actor.workspaceId, ids.next("cmp"), now)
        await storage.transaction((tx) => tx.companies.insert(kept))
        const reason = new Error("rolled back after the read")
        let during: Promise<unknown> | undefined
        const outcome = storage.transaction(async (tx) => {
          await tx.companies.insert(added)
          await tx.companies.update({ ...kept, name: "Renamed in vain" })
          during = read(async (reader) => ({
            added: await reader.companies.find(actor.workspaceId, added.id),
            kept: (await reader.companies.find(actor.workspaceId, kept.id))?.name,
          }))
          // The read takes no lock this transaction holds: where transactions overlap it ends
          // now; a storage that runs one at a time runs it after this one (awaiting it here
          // would wait for ever).
          if (storage.capabilities.concurrentTransactions) await during
          throw reason
        })
        await expect(outcome).rejects.toBe(reason)
        expect(await during).toEqual({ added: undefined, kept: "Rollback Ltd" })
      },
    },
    {
      id: "storage.close",
      title:
        "a closed storage is unusable: a transaction (and a read, where the storage has one) rejects, and closing again is harmless",
      run: async (harness) => {
        const { storage } = harness
        const ids = counterIds()
        const workspace = ids.next("ws")
        await storage.close()
        await expect(
          storage.transaction((tx) =>
            tx.workspaces.insertOrGet({
              id: workspace,
              name: harness.uniqueName("closed"),
              created_at: "2030-01-01T00:00:00.000Z",
            }),
          ),
        ).rejects.toThrow()
        if (storage.read !== undefined) {
          await expect(storage.read((tx) => tx.workspaces.findById(workspace))).rejects.toThrow()
        }
        await storage.close()
      },
    },
  ],
}
