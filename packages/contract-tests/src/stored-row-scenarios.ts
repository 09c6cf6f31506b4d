import { expect } from "vitest"
import type { StampedResource } from "./contract-reader.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { payingCompany, quoteAndPay, runAllDue } from "./payment-fixtures.ts"

const second = 1000

/** Rows as stored: names looked up exactly, timestamps written as the engine gave them. */
export const storedRowScenarios: ScenarioGroup = {
  title: "stored rows",
  scenarios: [
    {
      id: "lookups.workspace-name",
      title:
        "a workspace is found by its exact name: names that differ only in case, or that `_` or `%` would match as a pattern, are other workspaces",
      run: async ({ engine, reader, storage, uniqueName }) => {
        const base = uniqueName("exact")
        const findByName = (name: string) => storage.transaction((tx) => tx.workspaces.findByName(name))
        // Each name comes after a decoy that a case-insensitive or `LIKE` lookup of it would find first.
        const pairs = [
          { decoy: `${base}-case`, name: `${base}-CASE` },
          { decoy: `${base}-aXc`, name: `${base}-a_c` },
          { decoy: `${base}-pct-any`, name: `${base}-pct%` },
          { decoy: `${base}-Mixed_1`, name: `${base}-mixed_1` },
        ]
        const first = new Map<string, { readonly id: string; readonly name: string }>()
        for (const { decoy, name } of pairs) {
          for (const each of [decoy, name]) {
            const workspace = await engine.access.ensureWorkspace(each)
            expect(workspace.name).toBe(each)
            expect([...first.values()].map((w) => w.id)).not.toContain(workspace.id)
            first.set(each, workspace)
          }
        }
        for (const { decoy, name } of pairs) {
          for (const each of [name, decoy]) {
            expect(await engine.access.ensureWorkspace(each)).toEqual(first.get(each))
            expect(await reader.workspaceByName(each)).toEqual(first.get(each))
            expect(await findByName(each)).toMatchObject({ id: first.get(each)?.id, name: each })
            const key = await engine.access.createApiKey({ workspace: each })
            expect(key.workspace_id).toBe(first.get(each)?.id)
          }
        }
        expect(await reader.workspaceByName(`${base}-a%`)).toBeUndefined()
        expect(await reader.workspaceByName(`${base}-Case`)).toBeUndefined()
        expect(await findByName(`${base}-a%`)).toBeUndefined()
        expect(await findByName(`${base}-Case`)).toBeUndefined()
      },
    },
    {
      id: "timestamps.stored-as-given",
      title:
        "every row keeps the created_at, updated_at and deleted_at the engine wrote (its clock, far from the wall clock), never the database's clock",
      run: async (harness) => {
        const { engine, reader, clock } = harness
        const tick = () => {
          clock.advance(second)
          return clock.now().toISOString()
        }
        const expectStamps = async (
          resource: StampedResource,
          id: string,
          created_at: string,
          updated_at: string | null = created_at,
          deleted_at: string | null = null,
        ) =>
          expect({ resource, id, stamps: await reader.stampsOf(resource, id) }).toEqual({
            resource,
            id,
            stamps: { created_at, updated_at, deleted_at },
          })

        // The test clock starts years away from today: a stamp taken from the database's clock cannot match.
        expect(Math.abs(clock.now().getTime() - Date.now())).toBeGreaterThan(365 * 24 * 3600 * second)
        const t0 = tick()
        const paying = await payingCompany(harness)
        const { actor, company, entity, recipient, account, funding } = paying
        await expectStamps("workspace", actor.workspaceId, t0, null)
        await expectStamps("company", company.id, t0)
        await expectStamps("entity", entity.id, t0)
        await expectStamps("recipient", recipient.id, t0)
        await expectStamps("bank_account", account.id, t0)
        await expectStamps("payment_profile", paying.to, t0)
        await expectStamps("bank_account", funding.id, t0)
        await expectStamps("payment_profile", paying.from, t0)

        const t1 = tick()
        await engine.companies.update(actor, company.id, { name: "Renamed Inc" })
        await expectStamps("company", company.id, t0, t1)
        const t2 = tick()
        await engine.entities.update(actor, company.id, entity.id, { name: "Renamed Entity" })
        await expectStamps("entity", entity.id, t0, t2)

        const t3 = tick()
        const { quote, payment } = await quoteAndPay(harness, paying, 25, "stamps")
        await expectStamps("quote", quote.id, t3, null)
        await expectStamps("payment", payment.id, t3)
        const t4 = tick()
        expect((await runAllDue(engine)).failed).toBe(0)
        await expectStamps("payment", payment.id, t3, t4)
        const events = await reader.eventsOfCompany(company.id)
        expect(events.map((e) => [e.resource_id, e.created_at])).toEqual([
          [entity.id, t0],
          [account.id, t0],
          [paying.to, t0],
          [funding.id, t0],
          [paying.from, t0],
          [entity.id, t2],
          // Debit initiated, then completed: both in the job's run.
          [payment.id, t4],
          [payment.id, t4],
        ])
        for (const event of events) await expectStamps("event", event.id, event.created_at, null)

        // Onboarding rows: the onboarding and a person have both stamps, an attachment only created_at.
        const o1 = tick()
        const onboarding = await engine.onboardings.update(actor, company.id, entity.id, {
          business_details: { business_name: "Stamped Inc" },
        })
        await expectStamps("onboarding", onboarding.id, o1)
        const person = await engine.onboardings.createPerson(actor, company.id, entity.id, { first_name: "Ada" })
        await expectStamps("person", person.id, o1)
        const attachment = await engine.onboardingAttachments.create(actor, company.id, entity.id, {
          document_type: "bank_statement",
          file: { name: "statement.pdf", bytes: new TextEncoder().encode("%PDF-1.4\n%%EOF\n") },
        })
        await expectStamps("attachment", attachment.id, o1, null)
        const o2 = tick()
        await engine.onboardings.update(actor, company.id, entity.id, { primary_contact: { mobile: "5551234" } })
        await expectStamps("onboarding", onboarding.id, o1, o2)
        await engine.onboardings.updatePerson(actor, company.id, entity.id, person.id, { last_name: "Lovelace" })
        await expectStamps("person", person.id, o1, o2)
        await engine.onboardingAttachments.delete(actor, company.id, entity.id, attachment.id)
        expect(await reader.stampsOf("attachment", attachment.id)).toBeUndefined()

        const t5 = tick()
        const { feature } = await engine.features.enable(actor, company.id, entity.id, {
          feature_identifier: "multi_currency_account",
        })
        await expectStamps("feature", feature.application_id, t5)
        const t6 = tick()
        await engine.features.setStatus(actor, feature.application_id, "SUBMITTED")
        await expectStamps("feature", feature.application_id, t5, t6)
        // The onboarding follows its feature, at the feature's time.
        await expectStamps("onboarding", onboarding.id, o1, t6)

        const t7 = tick()
        await engine.recipients.delete(actor, company.id, recipient.id)
        await expectStamps("recipient", recipient.id, t0, t7, t7)
        const t8 = tick()
        await engine.entities.delete(actor, company.id, entity.id)
        await expectStamps("entity", entity.id, t0, t8, t8)
        const t9 = tick()
        await engine.companies.delete(actor, company.id)
        await expectStamps("company", company.id, t0, t9, t9)
      },
    },
  ],
}
