import { brandId, messages } from "@payments-engine/core"
import { expect } from "vitest"
import { activateIntegration, expectRefusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"

const acme = { name: "Acme Inc", country: "US", default_currency: "USD" } as const
const second = 1000

/** Companies: create, read, update, soft delete, lists and who may see or change them. */
export const companyScenarios: ScenarioGroup = {
  title: "companies",
  scenarios: [
    {
      id: "companies.create-and-get",
      title: "a created company can be fetched and listed, and every column round-trips",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        const at = clock.now().toISOString()
        const created = await engine.companies.create(actor, acme)
        expect(created).toEqual({ id: expect.any(String), ...acme, created_at: at, updated_at: at })
        expect(await engine.companies.get(actor, created.id)).toEqual(created)
        expect((await engine.companies.list(actor)).data).toEqual([created])
        const row = await storage.transaction((tx) => tx.companies.find(actor.workspaceId, created.id))
        expect(row).toEqual({ ...created, workspace_id: actor.workspaceId, role: "api_client", deleted_at: null })
      },
    },
    {
      id: "companies.update",
      title: "an update changes the given fields and updated_at only; undefined fields are left alone",
      run: async ({ engine, workspace, clock }) => {
        const actor = await workspace()
        const created = await engine.companies.create(actor, acme)
        clock.advance(5 * second)
        const renamed = await engine.companies.update(actor, created.id, { name: "Acme Europe" })
        expect(renamed).toEqual({ ...created, name: "Acme Europe", updated_at: clock.now().toISOString() })
        clock.advance(5 * second)
        const moved = await engine.companies.update(actor, created.id, { country: "DE", default_currency: "EUR" })
        expect(moved).toEqual({
          ...renamed,
          country: "DE",
          default_currency: "EUR",
          updated_at: clock.now().toISOString(),
        })
        // An embedder passes optional fields through as they are: undefined means "leave it".
        const untouched = await engine.companies.update(actor, created.id, { name: undefined, country: undefined })
        expect(untouched).toEqual(moved)
        expect(await engine.companies.get(actor, created.id)).toEqual(moved)
        expect((await engine.companies.list(actor)).data).toEqual([moved])
        await expectRefusal(
          engine.companies.update(actor, brandId("cmp", "cmp_unknown"), { name: "X" }),
          "not_found",
          "id",
          messages.companyNotFound,
        )
      },
    },
    {
      id: "companies.soft-delete",
      title: "a deleted company leaves the list but can still be fetched; it cannot be changed again",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        const gone = await engine.companies.create(actor, acme)
        const stays = await engine.companies.create(actor, { ...acme, name: "Stays Ltd" })
        clock.advance(second)
        const deleted = await engine.companies.delete(actor, gone.id)
        expect(deleted).toEqual({ ...gone, updated_at: clock.now().toISOString() })
        const list = await engine.companies.list(actor)
        expect(list.data).toEqual([stays])
        expect(list.meta.total_records).toBe(1)
        expect(await engine.companies.get(actor, gone.id)).toEqual(deleted)
        const row = await storage.transaction((tx) => tx.companies.find(actor.workspaceId, gone.id))
        expect(row?.deleted_at).toBe(clock.now().toISOString())
        await expectRefusal(
          engine.companies.update(actor, gone.id, { name: "Back" }),
          "not_found",
          "id",
          messages.companyNotFound,
        )
        await expectRefusal(engine.companies.delete(actor, gone.id), "not_found", "id", messages.companyNotFound)
      },
    },
    {
      id: "companies.paging",
      title: "lists page in creation order, with meta, empty pages past the end and per_page clamped to 100",
      run: async ({ engine, workspace }) => {
        const actor = await workspace()
        const companies = []
        for (const n of [1, 2, 3, 4, 5])
          companies.push(await engine.companies.create(actor, { ...acme, name: `Co ${n}` }))
        const page = async (query: { page?: unknown; per_page?: unknown }) => {
          const { data, meta } = await engine.companies.list(actor, query)
          return { data, meta }
        }
        const meta = (total_pages: number, current_page: number, per_page: number) => ({
          total_records: 5,
          total_pages,
          current_page,
          per_page,
        })
        expect(await page({})).toEqual({ data: companies, meta: meta(1, 1, 20) })
        expect(await page({ page: 1, per_page: 2 })).toEqual({ data: companies.slice(0, 2), meta: meta(3, 1, 2) })
        expect(await page({ page: "2", per_page: "2" })).toEqual({ data: companies.slice(2, 4), meta: meta(3, 2, 2) })
        expect(await page({ page: 3, per_page: 2 })).toEqual({ data: companies.slice(4), meta: meta(3, 3, 2) })
        expect(await page({ page: 4, per_page: 2 })).toEqual({ data: [], meta: meta(3, 4, 2) })
        expect(await page({ per_page: 500 })).toEqual({ data: companies, meta: meta(1, 1, 100) })
        await expectRefusal(
          engine.companies.list(actor, { page: "0" }),
          "missing",
          "page",
          "must be an integer greater than or equal to 1",
        )
      },
    },
    {
      id: "companies.tenancy",
      title: "another workspace's company is not_found exactly like an unknown one",
      run: async ({ engine, workspace }) => {
        const owner = await workspace()
        const other = await workspace()
        const company = await engine.companies.create(owner, acme)
        const notFound = (call: Promise<unknown>, field = "id") =>
          expectRefusal(call, "not_found", field, messages.companyNotFound)
        await notFound(engine.companies.get(other, company.id))
        await notFound(engine.companies.get(owner, brandId("cmp", "cmp_unknown")))
        await notFound(engine.companies.update(other, company.id, { name: "Hijacked" }))
        await notFound(engine.companies.delete(other, company.id))
        await notFound(
          engine.entities.create(other, company.id, { name: "Hijack", country_alpha2: "US" }),
          "company_id",
        )
        await notFound(engine.recipients.list(other, company.id), "company_id")
        expect((await engine.companies.list(other)).data).toEqual([])
        expect(await engine.companies.get(owner, company.id)).toEqual(company)
        expect((await engine.entities.list(owner, company.id)).data).toEqual([])
      },
    },
    {
      id: "companies.permissions",
      title: "a read actor cannot write (forbidden), and only api_client companies can be deleted",
      run: async ({ engine, storage, workspace }) => {
        const writer = await workspace()
        const reader = { ...writer, scope: "read" } as const
        const company = await engine.companies.create(writer, acme)
        const forbidden = (call: Promise<unknown>, message: string = messages.readOnlyKey) =>
          expectRefusal(call, "forbidden", "base", message)
        await forbidden(engine.companies.create(reader, acme))
        await forbidden(engine.companies.update(reader, company.id, { name: "Nope" }))
        await forbidden(engine.companies.delete(reader, company.id))
        await forbidden(engine.entities.create(reader, company.id, { name: "Nope", country_alpha2: "US" }))
        await forbidden(engine.recipients.create(reader, company.id, { name: "Nope" }))
        expect(await engine.companies.get(reader, company.id)).toEqual(company)
        expect((await engine.companies.list(reader)).data).toEqual([company])
        const platform = await engine.companies.create(writer, { ...acme, name: "Platform Co" }, { role: "platform" })
        const row = await storage.transaction((tx) => tx.companies.find(writer.workspaceId, platform.id))
        expect(row?.role).toBe("platform")
        await forbidden(engine.companies.delete(writer, platform.id), messages.companyNotApiCreated)
        expect((await engine.companies.list(writer)).data).toEqual([company, platform])
      },
    },
    {
      id: "companies.active-integration",
      title: "a company whose entity has an active payment integration cannot be updated or deleted",
      run: async ({ engine, workspace }) => {
        const actor = await workspace()
        const company = await engine.companies.create(actor, acme)
        const entity = await engine.entities.create(actor, company.id, { name: "Acme Inc", country_alpha2: "US" })
        await activateIntegration(engine, actor, company.id, entity.id)
        const update = engine.companies.update(actor, company.id, { name: "Renamed" })
        await expectRefusal(update, "forbidden", "base", messages.companyUpdateIntegration)
        await expectRefusal(
          engine.companies.delete(actor, company.id),
          "forbidden",
          "base",
          messages.companyDeleteIntegration,
        )
        expect((await engine.companies.list(actor)).data).toEqual([company])
      },
    },
  ],
}
