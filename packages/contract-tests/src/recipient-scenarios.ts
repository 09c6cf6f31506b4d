import { type Actor, brandId, type Engine, messages } from "@payments-engine/core"
import { expect } from "vitest"
import { expectRefusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"

const companyOf = (engine: Engine, actor: Actor, name = "Acme Inc") =>
  engine.companies.create(actor, { name, country: "US", default_currency: "USD" })

/** Recipients: created with or without email, listed per company, gone once deleted. */
export const recipientScenarios: ScenarioGroup = {
  title: "recipients",
  scenarios: [
    {
      id: "recipients.create-and-get",
      title: "recipients with and without email can be fetched and listed in creation order",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        const company = await companyOf(engine, actor)
        const at = clock.now().toISOString()
        const withEmail = await engine.recipients.create(actor, company.id, {
          name: "Jane Supplier",
          email: "jane@example.com",
        })
        expect(withEmail).toEqual({
          id: expect.any(String),
          name: "Jane Supplier",
          email: "jane@example.com",
          created_at: at,
          updated_at: at,
          bank_accounts: [],
        })
        const withoutEmail = await engine.recipients.create(actor, company.id, { name: "John Supplier" })
        const nullEmail = await engine.recipients.create(actor, company.id, { name: "Jim Supplier", email: null })
        expect([withoutEmail.email, nullEmail.email]).toEqual([null, null])
        const sameEmail = await engine.recipients.create(actor, company.id, { name: "Jo", email: "jane@example.com" })
        for (const recipient of [withEmail, withoutEmail, nullEmail, sameEmail]) {
          expect(await engine.recipients.get(actor, company.id, recipient.id)).toEqual(recipient)
        }
        const list = await engine.recipients.list(actor, company.id)
        expect(list.data).toEqual([withEmail, withoutEmail, nullEmail, sameEmail])
        expect(list.meta).toEqual({ total_records: 4, total_pages: 1, current_page: 1, per_page: 100 })
        const row = await storage.transaction((tx) => tx.recipients.findActive(company.id, withoutEmail.id))
        expect(row).toEqual({
          id: withoutEmail.id,
          company_id: company.id,
          name: "John Supplier",
          email: null,
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
      },
    },
    {
      id: "recipients.delete",
      title: "a deleted recipient is not_found and leaves the list",
      run: async ({ engine, storage, workspace }) => {
        const actor = await workspace()
        const company = await companyOf(engine, actor)
        const first = await engine.recipients.create(actor, company.id, { name: "Jane Supplier" })
        const second = await engine.recipients.create(actor, company.id, { name: "John Supplier" })
        expect(await engine.recipients.delete(actor, company.id, first.id)).toBeUndefined()
        const notFound = (call: Promise<unknown>) => expectRefusal(call, "not_found", "id", messages.recipientNotFound)
        await notFound(engine.recipients.get(actor, company.id, first.id))
        await notFound(engine.recipients.delete(actor, company.id, first.id))
        const list = await engine.recipients.list(actor, company.id)
        expect({ data: list.data, total: list.meta.total_records }).toEqual({ data: [second], total: 1 })
        expect(await storage.transaction((tx) => tx.recipients.findActive(company.id, first.id))).toBeUndefined()
        expect(await engine.recipients.get(actor, company.id, second.id)).toEqual(second)
      },
    },
    {
      id: "recipients.list-and-scope",
      title: "recipients are listed and found per company, paged, and hidden from other workspaces",
      run: async ({ engine, workspace }) => {
        const actor = await workspace()
        const stranger = await workspace()
        const company = await companyOf(engine, actor)
        const otherCompany = await companyOf(engine, actor, "Other Co")
        const recipients = []
        for (const name of ["Ann", "Bob", "Cy"])
          recipients.push(await engine.recipients.create(actor, company.id, { name }))
        const elsewhere = await engine.recipients.create(actor, otherCompany.id, { name: "Dee" })
        const page2 = await engine.recipients.list(actor, company.id, { page: 2, per_page: 2 })
        expect({ data: page2.data, meta: page2.meta }).toEqual({
          data: recipients.slice(2),
          meta: { total_records: 3, total_pages: 2, current_page: 2, per_page: 2 },
        })
        expect((await engine.recipients.list(actor, otherCompany.id)).data).toEqual([elsewhere])
        const notFound = (call: Promise<unknown>) => expectRefusal(call, "not_found", "id", messages.recipientNotFound)
        await notFound(engine.recipients.get(actor, otherCompany.id, recipients[0]!.id))
        await notFound(engine.recipients.delete(actor, otherCompany.id, recipients[0]!.id))
        await notFound(engine.recipients.get(actor, company.id, brandId("rcp", "rcp_unknown")))
        const hidden = (call: Promise<unknown>) =>
          expectRefusal(call, "not_found", "company_id", messages.companyNotFound)
        await hidden(engine.recipients.get(stranger, company.id, recipients[0]!.id))
        await hidden(engine.recipients.delete(stranger, company.id, recipients[0]!.id))
        await hidden(engine.recipients.create(stranger, company.id, { name: "Mallory" }))
        expect((await engine.recipients.list(actor, company.id)).data).toEqual(recipients)
      },
    },
  ],
}
