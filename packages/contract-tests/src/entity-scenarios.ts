import { type Actor, brandId, type Engine, messages } from "@payments-engine/core"
import { expect } from "vitest"
import { activateIntegration, expectRefusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"

const acmeEntity = { name: "Acme Inc", country_alpha2: "US" } as const

const companyOf = (engine: Engine, actor: Actor, name = "Acme Inc") =>
  engine.companies.create(actor, { name, country: "US", default_currency: "USD" })

/** Entities: at most one active entity per company, and the rules on changing it. */
export const entityScenarios: ScenarioGroup = {
  title: "entities",
  scenarios: [
    {
      id: "entities.create-and-get",
      title: "a created entity can be fetched and listed, and every column round-trips",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        const company = await companyOf(engine, actor)
        const at = clock.now().toISOString()
        const entity = await engine.entities.create(actor, company.id, acmeEntity)
        expect(entity).toEqual({
          id: expect.any(String),
          ...acmeEntity,
          company_id: company.id,
          created_at: at,
          updated_at: at,
        })
        expect(await engine.entities.get(actor, company.id, entity.id)).toEqual(entity)
        const list = await engine.entities.list(actor, company.id)
        expect({ data: list.data, total: list.meta.total_records }).toEqual({ data: [entity], total: 1 })
        const row = await storage.transaction((tx) => tx.entities.findActive(company.id, entity.id))
        expect(row).toEqual({ ...entity, payment_integration_active: false, deleted_at: null })
        expect(await storage.transaction((tx) => tx.entities.findActiveOfCompany(company.id))).toEqual(row)
      },
    },
    {
      id: "entities.update",
      title:
        "an update changes the given fields, leaves undefined ones alone; an entity is found only under its own company",
      run: async ({ engine, workspace, clock }) => {
        const actor = await workspace()
        const company = await companyOf(engine, actor)
        const otherCompany = await companyOf(engine, actor, "Other Co")
        const entity = await engine.entities.create(actor, company.id, acmeEntity)
        clock.advance(1000)
        const updated = await engine.entities.update(actor, company.id, entity.id, { name: "Acme Holdings" })
        expect(updated).toEqual({ ...entity, name: "Acme Holdings", updated_at: clock.now().toISOString() })
        const moved = await engine.entities.update(actor, company.id, entity.id, { country_alpha2: "GB" })
        expect(moved).toEqual({ ...updated, country_alpha2: "GB" })
        const untouched = engine.entities.update(actor, company.id, entity.id, {
          name: undefined,
          country_alpha2: undefined,
        })
        expect(await untouched).toEqual(moved)
        expect(await engine.entities.get(actor, company.id, entity.id)).toEqual(moved)
        expect((await engine.entities.list(actor, company.id)).data).toEqual([moved])
        const notFound = (call: Promise<unknown>) => expectRefusal(call, "not_found", "id", messages.entityNotFound)
        await notFound(engine.entities.get(actor, otherCompany.id, entity.id))
        await notFound(engine.entities.update(actor, otherCompany.id, entity.id, { name: "Moved" }))
        await notFound(engine.entities.update(actor, company.id, brandId("ent", "ent_unknown"), { name: "Ghost" }))
      },
    },
    {
      id: "entities.one-per-company",
      title: "a second entity is refused (invalid `base`), or invalid `name` when the name is the same",
      run: async ({ engine, workspace }) => {
        const actor = await workspace()
        const company = await companyOf(engine, actor)
        const entity = await engine.entities.create(actor, company.id, acmeEntity)
        const second = engine.entities.create(actor, company.id, { name: "Acme Europe", country_alpha2: "DE" })
        await expectRefusal(second, "invalid", "base", messages.companyHasEntity)
        const same = engine.entities.create(actor, company.id, { name: "  acme INC ", country_alpha2: "US" })
        await expectRefusal(same, "invalid", "name", messages.alreadyTaken)
        expect((await engine.entities.list(actor, company.id)).data).toEqual([entity])
        const otherCompany = await companyOf(engine, actor, "Other Co")
        const own = await engine.entities.create(actor, otherCompany.id, acmeEntity)
        expect((await engine.entities.list(actor, otherCompany.id)).data).toEqual([own])
      },
    },
    {
      id: "entities.delete-and-recreate",
      title: "a deleted entity is not_found and frees the company for a new one",
      run: async ({ engine, storage, workspace }) => {
        const actor = await workspace()
        const company = await companyOf(engine, actor)
        const entity = await engine.entities.create(actor, company.id, acmeEntity)
        expect(await engine.entities.delete(actor, company.id, entity.id)).toEqual({
          id: entity.id,
          message: "Entity deleted successfully",
        })
        const notFound = (call: Promise<unknown>) => expectRefusal(call, "not_found", "id", messages.entityNotFound)
        await notFound(engine.entities.get(actor, company.id, entity.id))
        await notFound(engine.entities.update(actor, company.id, entity.id, { name: "Back" }))
        await notFound(engine.entities.delete(actor, company.id, entity.id))
        const emptied = await engine.entities.list(actor, company.id)
        expect({ data: emptied.data, total: emptied.meta.total_records }).toEqual({ data: [], total: 0 })
        expect(await storage.transaction((tx) => tx.entities.findActiveOfCompany(company.id))).toBeUndefined()
        const again = await engine.entities.create(actor, company.id, acmeEntity)
        expect(again.id).not.toBe(entity.id)
        expect((await engine.entities.list(actor, company.id)).data).toEqual([again])
        await notFound(engine.entities.get(actor, company.id, entity.id))
      },
    },
    {
      id: "entities.active-integration",
      title: "an entity with an active payment integration cannot be updated or deleted (forbidden)",
      run: async ({ engine, storage, workspace }) => {
        const actor = await workspace()
        const company = await companyOf(engine, actor)
        const entity = await engine.entities.create(actor, company.id, acmeEntity)
        await activateIntegration(engine, actor, company.id, entity.id)
        const row = await storage.transaction((tx) => tx.entities.findActive(company.id, entity.id))
        expect(row?.payment_integration_active).toBe(true)
        const update = engine.entities.update(actor, company.id, entity.id, { name: "Renamed" })
        await expectRefusal(update, "forbidden", "base", messages.entityUpdateIntegration)
        const remove = engine.entities.delete(actor, company.id, entity.id)
        await expectRefusal(remove, "forbidden", "base", messages.entityDeleteIntegration)
        expect(await engine.entities.get(actor, company.id, entity.id)).toEqual(entity)
        expect((await engine.entities.list(actor, company.id)).data).toEqual([entity])
      },
    },
    {
      id: "entities.deleted-company",
      title: "everything under a deleted company is not_found on `company_id`",
      run: async ({ engine, workspace }) => {
        const actor = await workspace()
        const company = await companyOf(engine, actor)
        const entity = await engine.entities.create(actor, company.id, acmeEntity)
        const recipient = await engine.recipients.create(actor, company.id, { name: "Jane Supplier" })
        await engine.companies.delete(actor, company.id)
        const gone = (call: Promise<unknown>) =>
          expectRefusal(call, "not_found", "company_id", messages.companyNotFound)
        await gone(engine.entities.get(actor, company.id, entity.id))
        await gone(engine.entities.list(actor, company.id))
        await gone(engine.entities.create(actor, company.id, { name: "Phoenix", country_alpha2: "US" }))
        await gone(engine.entities.update(actor, company.id, entity.id, { name: "Phoenix" }))
        await gone(engine.entities.delete(actor, company.id, entity.id))
        await gone(engine.recipients.get(actor, company.id, recipient.id))
        await gone(engine.recipients.list(actor, company.id))
        await gone(engine.recipients.create(actor, company.id, { name: "John Supplier" }))
      },
    },
  ],
}
