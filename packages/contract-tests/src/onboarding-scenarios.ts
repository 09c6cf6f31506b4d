import type {
  AttachmentRecord,
  AttachmentRepository,
  Awaitable,
  CompanyId,
  EntityId,
  OnboardingAttachmentId,
  OnboardingId,
  OnboardingPersonId,
  OnboardingRecord,
  OnboardingRepository,
  PersonRecord,
  PersonRepository,
  WorkspaceId,
} from "@payments-engine/core"
import { expect } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { counterIds } from "./test-ports.ts"

/** One call of the onboarding ports in a transaction of its own. */
const onPorts =
  (harness: Harness) =>
  <T>(call: (onboardings: OnboardingRepository, persons: PersonRepository) => Awaitable<T>): Promise<T> =>
    harness.storage.transaction((tx) => call(tx.onboardings, tx.onboardingPersons))

/** A stored onboarding with every column set; `fields` overrides. */
const onboardingRow = (
  id: OnboardingId,
  workspaceId: WorkspaceId,
  companyId: CompanyId,
  entityId: EntityId,
  at: string,
  fields: Partial<OnboardingRecord> = {},
): OnboardingRecord => ({
  id,
  workspace_id: workspaceId,
  company_id: companyId,
  entity_id: entityId,
  status: "draft",
  submitted_at: null,
  approved_at: null,
  primary_contact_email: "ops@example.com",
  primary_contact_mobile: null,
  primary_contact_mobile_country_code: "+1",
  business_details: '{"id":"obd_1","business_name":"Acme «1»"}',
  created_at: at,
  updated_at: at,
  ...fields,
})

/** A stored person; `fields` overrides. */
const personRow = (
  id: OnboardingPersonId,
  workspaceId: WorkspaceId,
  companyId: CompanyId,
  entityId: EntityId,
  at: string,
  fields: Partial<PersonRecord> = {},
): PersonRecord => ({
  id,
  workspace_id: workspaceId,
  company_id: companyId,
  entity_id: entityId,
  details: `{"first_name":"Ada ${id}","roles":["director"]}`,
  created_at: at,
  updated_at: at,
  ...fields,
})

/** A stored attachment with every column set; `fields` overrides. */
const attachmentRow = (
  id: OnboardingAttachmentId,
  workspaceId: WorkspaceId,
  companyId: CompanyId,
  entityId: EntityId,
  at: string,
  fields: Partial<AttachmentRecord> = {},
): AttachmentRecord => ({
  id,
  workspace_id: workspaceId,
  company_id: companyId,
  entity_id: entityId,
  document_type: "bank_statement",
  file_name: `Relevé «${id}» 2030.pdf`,
  content_type: "application/pdf",
  size_bytes: 10 * 1024 * 1024,
  sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  created_at: at,
  ...fields,
})

/** One call of the attachment port in a transaction of its own. */
const onAttachments =
  (harness: Harness) =>
  <T>(call: (attachments: AttachmentRepository) => Awaitable<T>): Promise<T> =>
    harness.storage.transaction((tx) => call(tx.onboardingAttachments))

/** Entity onboardings and their persons: one onboarding per entity, everything found only under its workspace and entity. */
export const onboardingScenarios: ScenarioGroup = {
  title: "entity onboarding",
  scenarios: [
    {
      id: "onboardings.insert-find-update",
      title:
        "every column round-trips; one onboarding per entity (a second insert is refused and changes nothing); find, update and setStatus reach only the workspace's row",
      run: async (harness) => {
        const port = onPorts(harness)
        const ids = counterIds()
        const [ws, other] = [ids.next("ws"), ids.next("ws")]
        const company = ids.next("cmp")
        const [entity, bare] = [ids.next("ent"), ids.next("ent")]
        const at = "2030-03-04T05:06:07.008Z"
        const row = onboardingRow(ids.next("onb"), ws, company, entity, at)
        expect(await port((onboardings) => onboardings.insertIfNone(row))).toBe(true)
        const twin = onboardingRow(ids.next("onb"), ws, company, entity, at, { business_details: "{}" })
        expect(await port((onboardings) => onboardings.insertIfNone(twin))).toBe(false)
        const read = await port(async (onboardings) => ({
          mine: await onboardings.findByEntity(ws, entity),
          fromOther: await onboardings.findByEntity(other, entity),
          bare: await onboardings.findByEntity(ws, bare),
        }))
        expect(read).toEqual({ mine: row, fromOther: undefined, bare: undefined })

        const t1 = "2030-03-04T05:06:08.001Z"
        const change = { primary_contact_mobile: "5551234", primary_contact_email: null, updated_at: t1 }
        expect(await port((onboardings) => onboardings.update(other, row.id, change))).toBeUndefined()
        const updated = { ...row, ...change }
        expect(await port((onboardings) => onboardings.update(ws, row.id, change))).toEqual(updated)
        expect(await port((onboardings) => onboardings.findByEntity(ws, entity))).toEqual(updated)

        const t2 = "2030-03-04T05:06:09.002Z"
        const submitted = { status: "submitted", submitted_at: t2, updated_at: t2 } as const
        expect(await port((onboardings) => onboardings.setStatus(other, entity, submitted))).toBe(false)
        expect(await port((onboardings) => onboardings.setStatus(ws, bare, submitted))).toBe(false)
        expect(await port((onboardings) => onboardings.setStatus(ws, entity, submitted))).toBe(true)
        expect(await port((onboardings) => onboardings.findByEntity(ws, entity))).toEqual({ ...updated, ...submitted })
      },
    },
    {
      id: "onboardings.persons",
      title:
        "persons round-trip and list in id order under their workspace and entity, cut to the window with the count of all; update and delete reach only their own, delete once; the engine stores no readable tax id; allPersons lists them all before any onboarding is saved",
      run: async (harness) => {
        const port = onPorts(harness)
        const ids = counterIds()
        const [ws, other] = [ids.next("ws"), ids.next("ws")]
        const company = ids.next("cmp")
        const [entity, sibling] = [ids.next("ent"), ids.next("ent")]
        const at = "2030-03-04T05:06:07.008Z"
        const rows = [0, 1, 2, 3].map((i) => personRow(ids.next("per"), ws, company, i === 3 ? sibling : entity, at))
        // Inserted out of id order: lists are in id order whatever the insertion order.
        await port(async (_o, persons) => {
          for (const row of [...rows].reverse()) await persons.insert(row)
        })
        const mine = rows.slice(0, 3)
        const read = await port(async (_o, persons) => ({
          found: await persons.find(ws, entity, mine[0]!.id),
          underSibling: await persons.find(ws, sibling, mine[0]!.id),
          fromOther: await persons.find(other, entity, mine[0]!.id),
          all: await persons.listAll(ws, entity),
          page: await persons.list(ws, entity, { offset: 1, limit: 1 }),
          past: await persons.list(ws, entity, { offset: 5, limit: 2 }),
          sibling: await persons.list(ws, sibling, { offset: 0, limit: 10 }),
          otherWorkspace: await persons.list(other, entity, { offset: 0, limit: 10 }),
        }))
        expect(read).toEqual({
          found: mine[0],
          underSibling: undefined,
          fromOther: undefined,
          all: mine,
          page: { rows: [mine[1]], total: 3 },
          past: { rows: [], total: 3 },
          sibling: { rows: [rows[3]], total: 1 },
          otherWorkspace: { rows: [], total: 0 },
        })

        const t1 = "2030-03-04T05:06:08.001Z"
        const change = { details: '{"first_name":"Grace"}', updated_at: t1 }
        const target = mine[1]!
        expect(await port((_o, persons) => persons.update(other, entity, target.id, change))).toBeUndefined()
        expect(await port((_o, persons) => persons.update(ws, sibling, target.id, change))).toBeUndefined()
        expect(await port((_o, persons) => persons.update(ws, entity, target.id, change))).toEqual({
          ...target,
          ...change,
        })
        expect(await port((_o, persons) => persons.delete(other, entity, target.id))).toBe(false)
        expect(await port((_o, persons) => persons.delete(ws, sibling, target.id))).toBe(false)
        expect(await port((_o, persons) => persons.delete(ws, entity, target.id))).toBe(true)
        expect(await port((_o, persons) => persons.delete(ws, entity, target.id))).toBe(false)
        expect(await port((_o, persons) => persons.listAll(ws, entity))).toEqual([mine[0], mine[2]])

        // Through the engine: a tax id is answered once and stored only sealed.
        const { engine } = harness
        const actor = await harness.workspace()
        const owner = await engine.companies.create(actor, { name: "Onboard", country: "US", default_currency: "USD" })
        const ent = await engine.entities.create(actor, owner.id, { name: "Onboard", country_alpha2: "US" })
        const created = await engine.onboardings.createPerson(actor, owner.id, ent.id, {
          identifications: [{ identification_type: "tax_id", identification_number: "987-65-4321" }],
        })
        expect(created.identifications[0]?.identification_number).toBe("987-65-4321")
        const stored = await port((_o, persons) => persons.find(actor.workspaceId, ent.id, created.id))
        expect(stored).toMatchObject({ id: created.id, company_id: owner.id, entity_id: ent.id })
        expect(JSON.stringify(stored)).not.toContain("65-4321")
        expect(JSON.stringify(stored)).not.toContain("654321")
        expect((await engine.onboardings.getPerson(actor, owner.id, ent.id, created.id)).identifications).toEqual([
          { ...created.identifications[0], identification_number: "****4321" },
        ])
        // Before any onboarding is saved, every person is still listed, masked, and only under its entity.
        expect(await engine.onboardings.get(actor, owner.id, ent.id)).toBeNull()
        const second = await engine.onboardings.createPerson(actor, owner.id, ent.id, { first_name: "Ada" })
        expect(await engine.onboardings.allPersons(actor, owner.id, ent.id)).toEqual([
          await engine.onboardings.getPerson(actor, owner.id, ent.id, created.id),
          second,
        ])
        const otherEntity = await engine.entities.create(
          actor,
          (await engine.companies.create(actor, { name: "Else", country: "US", default_currency: "USD" })).id,
          { name: "Else", country_alpha2: "US" },
        )
        expect(await engine.onboardings.allPersons(actor, otherEntity.company_id, otherEntity.id)).toEqual([])
      },
    },
    {
      id: "onboardings.attachments",
      title:
        "attachments round-trip every column (size as a number) and list in id order under their workspace and entity, cut to the window with the count of all; find and delete reach only their own, delete once",
      run: async (harness) => {
        const port = onAttachments(harness)
        const ids = counterIds()
        const [ws, other] = [ids.next("ws"), ids.next("ws")]
        const company = ids.next("cmp")
        const [entity, sibling] = [ids.next("ent"), ids.next("ent")]
        const at = "2030-03-04T05:06:07.008Z"
        const rows = [
          attachmentRow(ids.next("att"), ws, company, entity, at),
          attachmentRow(ids.next("att"), ws, company, entity, at, {
            document_type: "identity_document",
            content_type: "image/png",
            size_bytes: 1,
          }),
          attachmentRow(ids.next("att"), ws, company, entity, "2030-03-04T05:06:08.009Z", {
            document_type: "other",
            content_type: "image/jpeg",
            file_name: "a".repeat(255),
          }),
          attachmentRow(ids.next("att"), ws, company, sibling, at),
        ]
        // Inserted out of id order: lists are in id order whatever the insertion order.
        await port(async (attachments) => {
          for (const row of [...rows].reverse()) await attachments.insert(row)
        })
        const mine = rows.slice(0, 3)
        const target = mine[1]!
        const read = await port(async (attachments) => ({
          found: await attachments.find(ws, entity, target.id),
          underSibling: await attachments.find(ws, sibling, target.id),
          fromOther: await attachments.find(other, entity, target.id),
          all: await attachments.list(ws, entity, { offset: 0, limit: 10 }),
          page: await attachments.list(ws, entity, { offset: 1, limit: 1 }),
          past: await attachments.list(ws, entity, { offset: 5, limit: 2 }),
          sibling: await attachments.list(ws, sibling, { offset: 0, limit: 10 }),
          otherWorkspace: await attachments.list(other, entity, { offset: 0, limit: 10 }),
        }))
        expect(read).toEqual({
          found: target,
          underSibling: undefined,
          fromOther: undefined,
          all: { rows: mine, total: 3 },
          page: { rows: [target], total: 3 },
          past: { rows: [], total: 3 },
          sibling: { rows: [rows[3]], total: 1 },
          otherWorkspace: { rows: [], total: 0 },
        })
        expect(typeof read.found?.size_bytes).toBe("number")

        expect(await port((attachments) => attachments.delete(other, entity, target.id))).toBe(false)
        expect(await port((attachments) => attachments.delete(ws, sibling, target.id))).toBe(false)
        expect(await port((attachments) => attachments.find(ws, entity, target.id))).toEqual(target)
        expect(await port((attachments) => attachments.delete(ws, entity, target.id))).toBe(true)
        expect(await port((attachments) => attachments.delete(ws, entity, target.id))).toBe(false)
        expect(await port((attachments) => attachments.find(ws, entity, target.id))).toBeUndefined()
        expect(await port((attachments) => attachments.list(ws, entity, { offset: 0, limit: 10 }))).toEqual({
          rows: [mine[0], mine[2]],
          total: 2,
        })
      },
    },
  ],
}
