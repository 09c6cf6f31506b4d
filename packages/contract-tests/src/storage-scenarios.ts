import type { CompanyId, CompanyRecord, WorkspaceId } from "@payments-engine/core"
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

/** The storage port itself: capabilities and transactions. */
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
  ],
}
