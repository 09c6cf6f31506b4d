import {
  type Actor,
  type AttachmentDocumentType,
  attachmentDocumentTypes,
  type CompanyId,
  type Engine,
  type EntityId,
  messages,
  type OnboardingAttachmentId,
  type OnboardingPerson,
  type OnboardingPersonId,
} from "@payments-engine/core"
import {
  attachmentMessages,
  onboardingMessages,
  personMessages,
  personRoles,
  sanitisedFileName,
} from "@payments-engine/core/effect"
import fc from "fast-check"
import { expect } from "vitest"
import { activateIntegration, expectRefusal, type Harness, refusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import type { ContractSuiteOptions } from "./options.ts"

/*
 * The model: per workspace, two entities (each of a company of its own), and per entity only what
 * a reader can tell apart: the onboarding's business name, business city and identifier numbers
 * (or no onboarding yet), the persons' names, roles and the last four characters of their tax id,
 * the attachments' names, types and sizes, and whether the entity's integration is active (then
 * everything is read-only). No ids, no timestamps.
 */

type Role = (typeof personRoles)[number]

interface OnboardingModel {
  businessName: string | null
  city: string | null
  identifiers: Array<string>
}

interface PersonModel {
  firstName: string | null
  lastName: string | null
  roles: ReadonlyArray<Role>
  /** The tax id's last four characters; null without one. */
  last4: string | null
}

interface AttachmentModel {
  readonly fileName: string
  readonly documentType: AttachmentDocumentType
  readonly contentType: "application/pdf" | "image/png"
  readonly size: number
}

interface EntityModel {
  onboarding: OnboardingModel | null
  readonly persons: Array<PersonModel>
  readonly attachments: Array<AttachmentModel>
  frozen: boolean
}

/** Workspace 0 and workspace 1. */
type Side = 0 | 1

/** Which of a workspace's two entities. */
type At = 0 | 1

type Model = readonly [readonly [EntityModel, EntityModel], readonly [EntityModel, EntityModel]]

/** Ids of what the model holds, in the same positions. */
interface EntityHandle {
  readonly companyId: CompanyId
  readonly entityId: EntityId
  readonly personIds: Array<OnboardingPersonId>
  readonly attachmentIds: Array<OnboardingAttachmentId>
}

interface Real {
  readonly harness: Harness
  readonly engine: Engine
  readonly actors: readonly [Actor, Actor]
  readonly entities: readonly [readonly [EntityHandle, EntityHandle], readonly [EntityHandle, EntityHandle]]
}

type ModelCommand = fc.AsyncCommand<Model, Real>

const other = (side: Side): Side => (side === 0 ? 1 : 0)

const masked = (last4: string | null) => (last4 === null ? [] : [`****${last4}`])

/** A person as the model can check it: names, roles and the numbers of its identifications. */
const personView = (person: OnboardingPerson) => ({
  id: person.id,
  first_name: person.first_name,
  last_name: person.last_name,
  roles: person.roles,
  numbers: person.identifications.map((i) => i.identification_number),
})

const expectedPersons = (entity: EntityModel, handle: EntityHandle) =>
  entity.persons.map((p, i) => ({
    id: handle.personIds[i],
    first_name: p.firstName,
    last_name: p.lastName,
    roles: p.roles,
    numbers: masked(p.last4),
  }))

/**
 * Reads one entity's onboarding, persons and attachments as its workspace and compares them with
 * the model. Every command ends by checking every entity of the run, so a write that lands on
 * the wrong entity or workspace shows at once.
 */
const checkEntity = async (real: Real, entity: EntityModel, handle: EntityHandle, actor: Actor) => {
  const { engine } = real
  const { companyId, entityId } = handle
  const onboarding = await engine.onboardings.get(actor, companyId, entityId)
  const persons = expectedPersons(entity, handle)
  if (entity.onboarding === null) expect(onboarding).toBeNull()
  else {
    expect({
      status: onboarding?.status,
      business_name: onboarding?.business_details.business_name,
      city: onboarding?.business_details.business_address?.city ?? null,
      identifiers: onboarding?.business_details.business_identifiers.map((b) => b.identifier_number),
      persons: onboarding?.persons.map(personView),
    }).toEqual({
      status: entity.frozen ? "approved" : "draft",
      business_name: entity.onboarding.businessName,
      city: entity.onboarding.city,
      identifiers: entity.onboarding.identifiers,
      persons,
    })
  }
  const listed = await engine.onboardings.listPersons(actor, companyId, entityId, { per_page: 100 })
  expect({ persons: listed.data.map(personView), total: listed.meta.total_records }).toEqual({
    persons,
    total: persons.length,
  })
  const attachments = await engine.onboardingAttachments.list(actor, companyId, entityId, { per_page: 100 })
  expect({
    attachments: attachments.data.map((a) => ({
      id: a.id,
      fileName: a.file_name,
      documentType: a.document_type,
      contentType: a.content_type,
      size: a.size_bytes,
    })),
    total: attachments.meta.total_records,
  }).toEqual({
    attachments: entity.attachments.map((a, i) => ({ id: handle.attachmentIds[i], ...a })),
    total: entity.attachments.length,
  })
}

const checkAll = async (model: Model, real: Real) => {
  for (const side of [0, 1] as const) {
    for (const at of [0, 1] as const) {
      await checkEntity(real, model[side][at], real.entities[side][at], real.actors[side])
    }
  }
}

/** A command on one entity: its model, its ids and its workspace's actor, checked afterwards. */
abstract class EntityCommand implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: At,
  ) {}
  check(_model: Readonly<Model>): boolean {
    return true
  }
  async run(model: Model, real: Real) {
    await this.act(model[this.side][this.at], real.entities[this.side][this.at], real.actors[this.side], real)
    await checkAll(model, real)
  }
  abstract act(entity: EntityModel, handle: EntityHandle, actor: Actor, real: Real): Promise<void>
  abstract toString(): string
}

/** Writes refused once the entity's integration is active: forbidden on `base` with the spec's message. */
const frozenOut = (call: Promise<unknown>, message: string = onboardingMessages.modifyIntegration) =>
  expectRefusal(call, "forbidden", "base", message)

interface OnboardingPatch {
  readonly business_details?: { readonly business_name: string | null }
  readonly business_address?: { readonly line1: string; readonly city: string; readonly country_alpha2: string }
  readonly business_identifiers?: ReadonlyArray<{ readonly identifier_type: "ein"; readonly identifier_number: string }>
}

class PatchOnboarding extends EntityCommand {
  constructor(
    side: Side,
    at: At,
    readonly body: OnboardingPatch,
  ) {
    super(side, at)
  }
  async act(entity: EntityModel, handle: EntityHandle, actor: Actor, { engine }: Real) {
    const patch = engine.onboardings.update(actor, handle.companyId, handle.entityId, this.body)
    if (entity.frozen) return frozenOut(patch, onboardingMessages.updateIntegration)
    const current = entity.onboarding ?? { businessName: null, city: null, identifiers: [] }
    const next: OnboardingModel = {
      businessName:
        this.body.business_details === undefined ? current.businessName : this.body.business_details.business_name,
      city: this.body.business_address?.city ?? current.city,
      identifiers: this.body.business_identifiers?.map((b) => b.identifier_number) ?? current.identifiers,
    }
    const answer = await patch
    expect({
      business_name: answer.business_details.business_name,
      city: answer.business_details.business_address?.city ?? null,
      identifiers: answer.business_details.business_identifiers.map((b) => b.identifier_number),
      persons: answer.persons.map(personView),
    }).toEqual({
      business_name: next.businessName,
      city: next.city,
      identifiers: next.identifiers,
      persons: expectedPersons(entity, handle),
    })
    entity.onboarding = next
  }
  toString() {
    return `PatchOnboarding(ws${this.side}, entity #${this.at}, ${fc.stringify(this.body)})`
  }
}

interface PersonBody {
  readonly first_name?: string | null
  readonly last_name?: string | null
  readonly roles?: ReadonlyArray<Role>
  readonly identifications?: ReadonlyArray<{
    readonly identification_type: "tax_id"
    readonly identification_number: string
  }>
}

/** The model's person with `body` written over `current`. */
const patchedPerson = (current: PersonModel | undefined, body: PersonBody): PersonModel => {
  const tax = body.identifications
  return {
    firstName: body.first_name === undefined ? (current?.firstName ?? null) : body.first_name,
    lastName: body.last_name === undefined ? (current?.lastName ?? null) : body.last_name,
    roles: body.roles ?? current?.roles ?? [],
    last4: tax === undefined ? (current?.last4 ?? null) : (tax[0]?.identification_number.slice(-4) ?? null),
  }
}

class CreatePerson extends EntityCommand {
  constructor(
    side: Side,
    at: At,
    readonly body: PersonBody,
  ) {
    super(side, at)
  }
  async act(entity: EntityModel, handle: EntityHandle, actor: Actor, { engine }: Real) {
    const create = engine.onboardings.createPerson(actor, handle.companyId, handle.entityId, this.body)
    if (entity.frozen) return frozenOut(create)
    const person = patchedPerson(undefined, this.body)
    const created = await create
    // The create answer is the only one that shows a tax id in full.
    expect(personView(created)).toEqual({
      id: created.id,
      first_name: person.firstName,
      last_name: person.lastName,
      roles: person.roles,
      numbers: (this.body.identifications ?? []).map((i) => i.identification_number),
    })
    entity.persons.push(person)
    handle.personIds.push(created.id)
  }
  toString() {
    return `CreatePerson(ws${this.side}, entity #${this.at}, ${fc.stringify(this.body)})`
  }
}

/** A command on one of the entity's persons, by position (wrapped around their number). */
abstract class PersonCommand extends EntityCommand {
  constructor(
    side: Side,
    at: At,
    readonly which: number,
  ) {
    super(side, at)
  }
  override check(model: Readonly<Model>) {
    return model[this.side][this.at].persons.length > 0
  }
}

class UpdatePerson extends PersonCommand {
  constructor(
    side: Side,
    at: At,
    which: number,
    readonly body: PersonBody,
  ) {
    super(side, at, which)
  }
  async act(entity: EntityModel, handle: EntityHandle, actor: Actor, { engine }: Real) {
    const index = this.which % entity.persons.length
    const id = handle.personIds[index]!
    const update = engine.onboardings.updatePerson(actor, handle.companyId, handle.entityId, id, this.body)
    if (entity.frozen) return frozenOut(update)
    const person = patchedPerson(entity.persons[index], this.body)
    // After its create, a person's tax id is masked in every answer, this one too.
    expect(personView(await update)).toEqual({
      id,
      first_name: person.firstName,
      last_name: person.lastName,
      roles: person.roles,
      numbers: masked(person.last4),
    })
    entity.persons[index] = person
  }
  toString() {
    return `UpdatePerson(ws${this.side}, entity #${this.at}, person #${this.which}, ${fc.stringify(this.body)})`
  }
}

class DeletePerson extends PersonCommand {
  async act(entity: EntityModel, handle: EntityHandle, actor: Actor, { engine }: Real) {
    const index = this.which % entity.persons.length
    const id = handle.personIds[index]!
    const remove = engine.onboardings.deletePerson(actor, handle.companyId, handle.entityId, id)
    if (entity.frozen) return frozenOut(remove)
    await remove
    entity.persons.splice(index, 1)
    handle.personIds.splice(index, 1)
    const gone = (call: Promise<unknown>) => expectRefusal(call, "not_found", "id", personMessages.notFound)
    await gone(engine.onboardings.getPerson(actor, handle.companyId, handle.entityId, id))
    await gone(engine.onboardings.deletePerson(actor, handle.companyId, handle.entityId, id))
  }
  toString() {
    return `DeletePerson(ws${this.side}, entity #${this.at}, person #${this.which})`
  }
}

/** The smallest files the engine's types accept: a PDF or PNG header, then `padding` bytes. */
const tinyFile = (kind: "pdf" | "png", padding: number): Uint8Array => {
  const head =
    kind === "pdf"
      ? new TextEncoder().encode("%PDF-1.4\n%%EOF\n")
      : Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const bytes = new Uint8Array(head.length + padding)
  bytes.set(head)
  for (let i = head.length; i < bytes.length; i += 1) bytes[i] = i % 251
  return bytes
}

class UploadAttachment extends EntityCommand {
  constructor(
    side: Side,
    at: At,
    readonly documentType: AttachmentDocumentType,
    readonly kind: "pdf" | "png",
    readonly padding: number,
    readonly name: string,
  ) {
    super(side, at)
  }
  async act(entity: EntityModel, handle: EntityHandle, actor: Actor, { engine }: Real) {
    const bytes = tinyFile(this.kind, this.padding)
    const upload = engine.onboardingAttachments.create(actor, handle.companyId, handle.entityId, {
      document_type: this.documentType,
      file: { name: this.name, bytes },
    })
    if (entity.frozen) return frozenOut(upload)
    const created = await upload
    const attachment: AttachmentModel = {
      fileName: sanitisedFileName(this.name),
      documentType: this.documentType,
      contentType: this.kind === "pdf" ? "application/pdf" : "image/png",
      size: bytes.length,
    }
    expect({
      fileName: created.file_name,
      documentType: created.document_type,
      contentType: created.content_type,
      size: created.size_bytes,
    }).toEqual(attachment)
    entity.attachments.push(attachment)
    handle.attachmentIds.push(created.id)
  }
  toString() {
    return `UploadAttachment(ws${this.side}, entity #${this.at}, ${this.documentType}, ${this.kind} of ${this.padding} more bytes, ${fc.stringify(this.name)})`
  }
}

class DeleteAttachment extends EntityCommand {
  constructor(
    side: Side,
    at: At,
    readonly which: number,
  ) {
    super(side, at)
  }
  override check(model: Readonly<Model>) {
    return model[this.side][this.at].attachments.length > 0
  }
  async act(entity: EntityModel, handle: EntityHandle, actor: Actor, { engine }: Real) {
    const index = this.which % entity.attachments.length
    const id = handle.attachmentIds[index]!
    const remove = engine.onboardingAttachments.delete(actor, handle.companyId, handle.entityId, id)
    if (entity.frozen) return frozenOut(remove)
    await remove
    entity.attachments.splice(index, 1)
    handle.attachmentIds.splice(index, 1)
    const gone = (call: Promise<unknown>) => expectRefusal(call, "not_found", "id", attachmentMessages.notFound)
    await gone(engine.onboardingAttachments.get(actor, handle.companyId, handle.entityId, id))
    await gone(engine.onboardingAttachments.delete(actor, handle.companyId, handle.entityId, id))
  }
  toString() {
    return `DeleteAttachment(ws${this.side}, entity #${this.at}, attachment #${this.which})`
  }
}

/** Moves the entity's multi-currency account to ACTIVE: its onboarding is read-only from then on. */
class Activate extends EntityCommand {
  override check(model: Readonly<Model>) {
    return !model[this.side][this.at].frozen
  }
  async act(entity: EntityModel, handle: EntityHandle, actor: Actor, { engine }: Real) {
    const feature = await activateIntegration(engine, actor, handle.companyId, handle.entityId)
    expect(feature.status).toBe("ACTIVE")
    entity.frozen = true
  }
  toString() {
    return `Activate(ws${this.side}, entity #${this.at})`
  }
}

/**
 * Reads of the entity as the other workspace (its company, or the other workspace's own company
 * with this entity's id) and of its persons and attachments under its sibling entity: each is
 * refused exactly as for an id that does not exist.
 */
class ReadFromOutside extends EntityCommand {
  override check(model: Readonly<Model>) {
    const entity = model[this.side][this.at]
    return entity.persons.length + entity.attachments.length > 0 || entity.onboarding !== null
  }
  async act(_entity: EntityModel, handle: EntityHandle, _actor: Actor, real: Real) {
    const { engine } = real
    const outsider = real.actors[other(this.side)]
    const { companyId, entityId } = handle
    const missingCompany = `${companyId}_missing` as CompanyId
    const missingEntity = `${entityId}_missing` as EntityId
    // One call at a time: a second promise left unawaited while the first fails would be an
    // unhandled rejection on a storage that really runs them in parallel.
    const asMissing = async (call: () => Promise<unknown>, missing: () => Promise<unknown>) => {
      const refused = await refusal(call())
      const expected = await refusal(missing())
      expect({ kind: refused.kind, errors: refused.errors }).toEqual({ kind: expected.kind, errors: expected.errors })
    }
    const outsiderCompany = real.entities[other(this.side)][0].companyId
    const reads = (actor: Actor, cid: CompanyId, eid: EntityId): ReadonlyArray<[string, () => Promise<unknown>]> => [
      ["get", () => engine.onboardings.get(actor, cid, eid)],
      ["listPersons", () => engine.onboardings.listPersons(actor, cid, eid)],
      ["allPersons", () => engine.onboardings.allPersons(actor, cid, eid)],
      ["listAttachments", () => engine.onboardingAttachments.list(actor, cid, eid)],
      ...handle.personIds.map((id): [string, () => Promise<unknown>] => [
        "getPerson",
        () => engine.onboardings.getPerson(actor, cid, eid, id),
      ]),
      ...handle.attachmentIds.map((id): [string, () => Promise<unknown>] => [
        "getAttachment",
        () => engine.onboardingAttachments.get(actor, cid, eid, id),
      ]),
    ]
    const asOutsider = reads(outsider, companyId, entityId)
    const missing = reads(outsider, missingCompany, entityId)
    for (const [i, [, read]] of asOutsider.entries()) await asMissing(read, missing[i]![1])
    await expectRefusal(
      engine.onboardings.get(outsider, companyId, entityId),
      "not_found",
      "company_id",
      messages.companyNotFound,
    )
    const underOwnCompany = reads(outsider, outsiderCompany, entityId)
    const missingUnderOwn = reads(outsider, outsiderCompany, missingEntity)
    for (const [i, [, read]] of underOwnCompany.entries()) await asMissing(read, missingUnderOwn[i]![1])
    // The sibling entity of the same workspace and company reaches none of this entity's persons or attachments.
    const actor = real.actors[this.side]
    const sibling = real.entities[this.side][this.at === 0 ? 1 : 0]
    for (const id of handle.personIds) {
      await expectRefusal(
        engine.onboardings.getPerson(actor, sibling.companyId, sibling.entityId, id),
        "not_found",
        "id",
        personMessages.notFound,
      )
    }
    for (const id of handle.attachmentIds) {
      await expectRefusal(
        engine.onboardingAttachments.get(actor, sibling.companyId, sibling.entityId, id),
        "not_found",
        "id",
        attachmentMessages.notFound,
      )
    }
  }
  toString() {
    return `ReadFromOutside(ws${this.side}, entity #${this.at})`
  }
}

const side = fc.constantFrom<Side>(0, 1)
const at = fc.constantFrom<At>(0, 1)
const which = fc.nat({ max: 7 })

/** Names of up to 30 printable characters, and a few that are not plain ASCII. */
const name = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.constantFrom("Zoë", "李雷", "O'Brien", "  spaced  ", "Ǆemal"),
)
const taxId = fc.stringMatching(/^\d{3}-\d{2}-\d{4}$/)
const roles = fc.subarray([...personRoles])
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined })

/** Drops the keys whose value is undefined: the bodies the engine decodes are exact. */
const defined = <T>(body: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as T

const onboardingPatch: fc.Arbitrary<OnboardingPatch> = fc
  .record({
    business_name: optional(fc.option(name, { nil: null })),
    city: optional(name),
    identifiers: optional(fc.array(fc.stringMatching(/^\d{2}-\d{7}$/), { maxLength: 3 })),
  })
  .map(({ business_name, city, identifiers }) =>
    defined<OnboardingPatch>({
      business_details: business_name === undefined ? undefined : { business_name },
      business_address: city === undefined ? undefined : { line1: "1 Main St", city, country_alpha2: "US" },
      business_identifiers: identifiers?.map((n) => ({ identifier_type: "ein" as const, identifier_number: n })),
    }),
  )

const personBody = (nullable: boolean): fc.Arbitrary<PersonBody> =>
  fc
    .record({
      first_name: optional(nullable ? fc.option(name, { nil: null }) : name),
      last_name: optional(nullable ? fc.option(name, { nil: null }) : name),
      roles: optional(roles),
      tax: optional(fc.option(taxId, { nil: null })),
    })
    .map(({ tax, ...fields }) =>
      defined<PersonBody>({
        ...fields,
        identifications:
          tax === undefined
            ? undefined
            : tax === null
              ? []
              : [{ identification_type: "tax_id" as const, identification_number: tax }],
      }),
    )

const patchOnboarding = fc.tuple(side, at, onboardingPatch).map(([s, a, body]) => new PatchOnboarding(s, a, body))
const createPerson = fc.tuple(side, at, personBody(false)).map(([s, a, body]) => new CreatePerson(s, a, body))
const uploadAttachment = fc
  .tuple(side, at, fc.constantFrom(...attachmentDocumentTypes), fc.constantFrom("pdf", "png"), fc.nat(64), name)
  .map(([s, a, type, kind, padding, file]) => new UploadAttachment(s, a, type, kind, padding, `${file}.${kind}`))

/**
 * Every command checks its own answer, then every entity of the run against the model. Writes
 * come twice as often as an activation, so most entities take writes for a while before they freeze.
 */
const commandArbitraries: Array<fc.Arbitrary<ModelCommand>> = [
  patchOnboarding,
  patchOnboarding,
  createPerson,
  createPerson,
  fc.tuple(side, at, which, personBody(true)).map(([s, a, w, body]) => new UpdatePerson(s, a, w, body)),
  fc.tuple(side, at, which).map(([s, a, w]) => new DeletePerson(s, a, w)),
  uploadAttachment,
  uploadAttachment,
  fc.tuple(side, at, which).map(([s, a, w]) => new DeleteAttachment(s, a, w)),
  fc.tuple(side, at).map(([s, a]) => new Activate(s, a)),
  fc.tuple(side, at).map(([s, a]) => new ReadFromOutside(s, a)),
]

/** Runs of the onboarding model unless `fastCheck.numRuns` says otherwise: each run checks every entity after every command. */
export const onboardingModelRuns = 10

const emptyEntity = (): EntityModel => ({ onboarding: null, persons: [], attachments: [], frozen: false })

/**
 * Random sequences (up to 30) of onboarding PATCHes, person creates, updates and deletes,
 * attachment uploads and deletes, activations of the entity's integration and reads from
 * outside, over two fresh workspaces of two entities each per run, checked against the model
 * after every command. One storage serves every run.
 */
export const runOnboardingModel = async (harness: Harness, options: Pick<ContractSuiteOptions, "fastCheck">) => {
  const { numRuns = onboardingModelRuns, seed, path, replayPath } = options.fastCheck ?? {}
  const { engine } = harness
  const entityOf = async (actor: Actor, label: string): Promise<EntityHandle> => {
    const company = await engine.companies.create(actor, { name: label, country: "US", default_currency: "USD" })
    const entity = await engine.entities.create(actor, company.id, { name: label, country_alpha2: "US" })
    return { companyId: company.id, entityId: entity.id, personIds: [], attachmentIds: [] }
  }
  const setup = async () => {
    const actors = [await harness.workspace(), await harness.workspace()] as const
    const entities = [
      [await entityOf(actors[0], "Onboard A"), await entityOf(actors[0], "Onboard B")],
      [await entityOf(actors[1], "Onboard A"), await entityOf(actors[1], "Onboard B")],
    ] as const
    const model: Model = [
      [emptyEntity(), emptyEntity()],
      [emptyEntity(), emptyEntity()],
    ]
    const real: Real = { harness, engine, actors, entities }
    return { model, real }
  }
  const sequences = fc.commands(commandArbitraries, {
    maxCommands: 30,
    size: "max",
    ...(replayPath ? { replayPath } : {}),
  })
  await fc.assert(
    fc.asyncProperty(sequences, (sequence) => fc.asyncModelRun(setup, sequence)),
    { numRuns, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) },
  )
}

/** The model-based run of entity onboarding, as a group of one test. */
export const onboardingModelScenarios: ScenarioGroup = {
  title: "model of entity onboarding",
  scenarios: [
    {
      id: "model.onboarding",
      title:
        "random onboarding PATCH, person, attachment, activation and outside-read sequences over two workspaces agree with a tiny model: business name, city and identifiers, persons with masked tax ids, attachments, read-only (forbidden) once the integration is active, not_found from another workspace as for a missing id",
      timeout: 180_000,
      run: runOnboardingModel,
    },
  ],
}
