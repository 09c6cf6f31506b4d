import {
  type Actor,
  type CompanyId,
  type Engine,
  type EntityId,
  messages,
  type RecipientId,
} from "@payments-engine/core"
import fc from "fast-check"
import { expect } from "vitest"
import { expectRefusal, type Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import type { ContractSuiteOptions } from "./options.ts"
import {
  companyCreateBody,
  companyUpdateBody,
  entityCreateBody,
  entityUpdateBody,
  recipientCreateBody,
} from "./test-data.ts"

/*
 * The model: per workspace, its companies in creation order, each with a name, whether it is
 * deleted, its latest entity (name and whether deleted) and the names of its live recipients.
 * Nothing else: no ids, no timestamps, no paging arithmetic beyond a slice. The engine's rules it
 * encodes are the spec's: one live entity per company, a deleted company stays fetchable but
 * everything under it is gone, and another workspace's company is not_found.
 */

interface EntityModel {
  name: string
  deleted: boolean
}

interface CompanyModel {
  name: string
  deleted: boolean
  entity: EntityModel | null
  recipients: Array<string>
}

/** Workspace 0 and workspace 1. */
type Side = 0 | 1

interface Model {
  readonly workspaces: readonly [Array<CompanyModel>, Array<CompanyModel>]
}

/** Ids of what the model holds, in the same positions. */
interface CompanyHandle {
  readonly id: CompanyId
  entityId: EntityId | null
  readonly recipientIds: Array<RecipientId>
}

interface Real {
  readonly engine: Engine
  readonly actors: readonly [Actor, Actor]
  readonly workspaces: readonly [Array<CompanyHandle>, Array<CompanyHandle>]
}

type ModelCommand = fc.AsyncCommand<Model, Real>

/** The company at a generated position (any number, wrapped around the companies there are). */
const companyAt = (model: Model, side: Side, at: number): CompanyModel => {
  const companies = model.workspaces[side]
  return companies[at % companies.length]!
}

const handleOf = (real: Real, side: Side, at: number): CompanyHandle => {
  const handles = real.workspaces[side]
  return handles[at % handles.length]!
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

const companyGone = (call: Promise<unknown>, field = "id") =>
  expectRefusal(call, "not_found", field, messages.companyNotFound)

class CreateCompany implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly body: { name: string; country: string; default_currency: string },
    readonly asReader: boolean,
  ) {}
  check = () => true
  async run(model: Model, real: Real) {
    const actor = real.actors[this.side]
    if (this.asReader) {
      const refused = real.engine.companies.create({ ...actor, scope: "read" }, this.body)
      return expectRefusal(refused, "forbidden", "base", messages.readOnlyKey)
    }
    const created = await real.engine.companies.create(actor, this.body)
    expect(created).toMatchObject(this.body)
    model.workspaces[this.side].push({ name: this.body.name, deleted: false, entity: null, recipients: [] })
    real.workspaces[this.side].push({ id: created.id, entityId: null, recipientIds: [] })
  }
  toString = () => `CreateCompany(ws${this.side}, ${fc.stringify(this.body)}${this.asReader ? ", as reader" : ""})`
}

class UpdateCompany implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
    readonly body: { name?: string | undefined; country?: string | undefined; default_currency?: string },
  ) {}
  check = (model: Readonly<Model>) => model.workspaces[this.side].length > 0
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const { id } = handleOf(real, this.side, this.at)
    const update = real.engine.companies.update(real.actors[this.side], id, this.body)
    if (company.deleted) return companyGone(update)
    const name = this.body.name ?? company.name
    expect((await update).name).toBe(name)
    company.name = name
  }
  toString = () => `UpdateCompany(ws${this.side}, #${this.at}, ${fc.stringify(this.body)})`
}

class DeleteCompany implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
  ) {}
  check = (model: Readonly<Model>) => model.workspaces[this.side].length > 0
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const remove = real.engine.companies.delete(real.actors[this.side], handleOf(real, this.side, this.at).id)
    if (company.deleted) return companyGone(remove)
    expect((await remove).name).toBe(company.name)
    company.deleted = true
  }
  toString = () => `DeleteCompany(ws${this.side}, #${this.at})`
}

/** Gets a company as its own workspace (found, deleted or not) or as the other one (not_found). */
class GetCompany implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
    readonly viewer: Side,
  ) {}
  check = (model: Readonly<Model>) => model.workspaces[this.side].length > 0
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const { id } = handleOf(real, this.side, this.at)
    const get = real.engine.companies.get(real.actors[this.viewer], id)
    if (this.viewer !== this.side) return companyGone(get)
    expect(await get).toMatchObject({ id, name: company.name })
  }
  toString = () => `GetCompany(ws${this.side}, #${this.at}, as ws${this.viewer})`
}

class ListCompanies implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly page: number,
    readonly perPage: number,
  ) {}
  check = () => true
  async run(model: Model, real: Real) {
    const live = model.workspaces[this.side]
      .map((company, i) => ({ company, id: real.workspaces[this.side][i]!.id }))
      .filter(({ company }) => !company.deleted)
      .map(({ company, id }) => ({ id, name: company.name }))
    const list = await real.engine.companies.list(real.actors[this.side], { page: this.page, per_page: this.perPage })
    const from = (this.page - 1) * this.perPage
    expect(list.data.map(({ id, name }) => ({ id, name }))).toEqual(live.slice(from, from + this.perPage))
    expect(list.meta.total_records).toBe(live.length)
  }
  toString = () => `ListCompanies(ws${this.side}, page ${this.page}, per_page ${this.perPage})`
}

class CreateEntity implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
    readonly body: { name: string; country_alpha2: string },
  ) {}
  check = (model: Readonly<Model>) => model.workspaces[this.side].length > 0
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const handle = handleOf(real, this.side, this.at)
    const create = real.engine.entities.create(real.actors[this.side], handle.id, this.body)
    if (company.deleted) return companyGone(create, "company_id")
    const live = company.entity?.deleted === false ? company.entity : null
    if (live !== null) {
      return sameName(live.name, this.body.name)
        ? expectRefusal(create, "invalid", "name", messages.alreadyTaken)
        : expectRefusal(create, "invalid", "base", messages.companyHasEntity)
    }
    const entity = await create
    expect(entity).toMatchObject({ ...this.body, company_id: handle.id })
    company.entity = { name: this.body.name, deleted: false }
    handle.entityId = entity.id
  }
  toString = () => `CreateEntity(ws${this.side}, #${this.at}, ${fc.stringify(this.body)})`
}

/** Companies of a side that are live and have had an entity: the ones an entity id exists for. */
const hasEntity = (model: Readonly<Model>, side: Side, at: number) => {
  const companies = model.workspaces[side]
  if (companies.length === 0) return false
  const company = companies[at % companies.length]!
  return !company.deleted && company.entity !== null
}

class UpdateEntity implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
    readonly body: { name?: string | undefined; country_alpha2?: string | undefined },
  ) {}
  check = (model: Readonly<Model>) => hasEntity(model, this.side, this.at)
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const entity = company.entity!
    const handle = handleOf(real, this.side, this.at)
    const update = real.engine.entities.update(real.actors[this.side], handle.id, handle.entityId!, this.body)
    if (entity.deleted) return expectRefusal(update, "not_found", "id", messages.entityNotFound)
    const name = this.body.name ?? entity.name
    expect((await update).name).toBe(name)
    entity.name = name
  }
  toString = () => `UpdateEntity(ws${this.side}, #${this.at}, ${fc.stringify(this.body)})`
}

class DeleteEntity implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
  ) {}
  check = (model: Readonly<Model>) => hasEntity(model, this.side, this.at)
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const entity = company.entity!
    const handle = handleOf(real, this.side, this.at)
    const remove = real.engine.entities.delete(real.actors[this.side], handle.id, handle.entityId!)
    if (entity.deleted) return expectRefusal(remove, "not_found", "id", messages.entityNotFound)
    expect(await remove).toEqual({ id: handle.entityId, message: "Entity deleted successfully" })
    entity.deleted = true
  }
  toString = () => `DeleteEntity(ws${this.side}, #${this.at})`
}

/** Gets the company's latest entity by id and lists its entities, as either workspace. */
class ReadEntities implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
    readonly viewer: Side,
  ) {}
  check = (model: Readonly<Model>) => model.workspaces[this.side].length > 0
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const handle = handleOf(real, this.side, this.at)
    const actor = real.actors[this.viewer]
    // One call at a time: a second promise left unawaited while the first fails would be an
    // unhandled rejection on a storage that really runs them in parallel.
    const list = real.engine.entities.list(actor, handle.id)
    const get = () =>
      handle.entityId === null ? undefined : real.engine.entities.get(actor, handle.id, handle.entityId)
    if (this.viewer !== this.side || company.deleted) {
      await companyGone(list, "company_id")
      const gone = get()
      if (gone !== undefined) await companyGone(gone, "company_id")
      return
    }
    const live = company.entity?.deleted === false ? company.entity : null
    expect((await list).data.map((e) => e.name)).toEqual(live === null ? [] : [live.name])
    const fetched = get()
    if (fetched === undefined) return
    if (live === null) return expectRefusal(fetched, "not_found", "id", messages.entityNotFound)
    expect(await fetched).toMatchObject({ id: handle.entityId, name: live.name, company_id: handle.id })
  }
  toString = () => `ReadEntities(ws${this.side}, #${this.at}, as ws${this.viewer})`
}

class CreateRecipient implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
    readonly body: { name: string; email?: string | null | undefined },
  ) {}
  check = (model: Readonly<Model>) => model.workspaces[this.side].length > 0
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const handle = handleOf(real, this.side, this.at)
    const create = real.engine.recipients.create(real.actors[this.side], handle.id, this.body)
    if (company.deleted) return companyGone(create, "company_id")
    const recipient = await create
    expect(recipient).toMatchObject({ name: this.body.name, email: this.body.email ?? null, bank_accounts: [] })
    company.recipients.push(this.body.name)
    handle.recipientIds.push(recipient.id)
  }
  toString = () => `CreateRecipient(ws${this.side}, #${this.at}, ${fc.stringify(this.body)})`
}

class DeleteRecipient implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
    readonly which: number,
  ) {}
  check = (model: Readonly<Model>) => {
    const companies = model.workspaces[this.side]
    if (companies.length === 0) return false
    const company = companies[this.at % companies.length]!
    return !company.deleted && company.recipients.length > 0
  }
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const handle = handleOf(real, this.side, this.at)
    const index = this.which % company.recipients.length
    const id = handle.recipientIds[index]!
    await real.engine.recipients.delete(real.actors[this.side], handle.id, id)
    company.recipients.splice(index, 1)
    handle.recipientIds.splice(index, 1)
    await expectRefusal(
      real.engine.recipients.get(real.actors[this.side], handle.id, id),
      "not_found",
      "id",
      messages.recipientNotFound,
    )
  }
  toString = () => `DeleteRecipient(ws${this.side}, #${this.at}, recipient #${this.which})`
}

class ListRecipients implements ModelCommand {
  constructor(
    readonly side: Side,
    readonly at: number,
    readonly viewer: Side,
  ) {}
  check = (model: Readonly<Model>) => model.workspaces[this.side].length > 0
  async run(model: Model, real: Real) {
    const company = companyAt(model, this.side, this.at)
    const handle = handleOf(real, this.side, this.at)
    const list = real.engine.recipients.list(real.actors[this.viewer], handle.id)
    if (this.viewer !== this.side || company.deleted) return companyGone(list, "company_id")
    const { data } = await list
    expect(data.map((r) => ({ id: r.id, name: r.name }))).toEqual(
      company.recipients.map((name, i) => ({ id: handle.recipientIds[i], name })),
    )
  }
  toString = () => `ListRecipients(ws${this.side}, #${this.at}, as ws${this.viewer})`
}

const side = fc.constantFrom<Side>(0, 1)
const at = fc.nat({ max: 7 })

/** Every command checks its own answer; the reads also check what earlier writes left behind. */
const commandArbitraries: Array<fc.Arbitrary<ModelCommand>> = [
  fc
    .tuple(
      side,
      companyCreateBody,
      fc.oneof({ arbitrary: fc.constant(true), weight: 1 }, { arbitrary: fc.constant(false), weight: 9 }),
    )
    .map(([s, body, asReader]) => new CreateCompany(s, body, asReader)),
  fc.tuple(side, at, companyUpdateBody).map(([s, i, body]) => new UpdateCompany(s, i, body)),
  fc.tuple(side, at).map(([s, i]) => new DeleteCompany(s, i)),
  fc.tuple(side, at, side).map(([s, i, viewer]) => new GetCompany(s, i, viewer)),
  fc
    .tuple(side, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 4 }))
    .map(([s, page, perPage]) => new ListCompanies(s, page, perPage)),
  fc.tuple(side, at, entityCreateBody).map(([s, i, body]) => new CreateEntity(s, i, body)),
  fc.tuple(side, at, entityUpdateBody).map(([s, i, body]) => new UpdateEntity(s, i, body)),
  fc.tuple(side, at).map(([s, i]) => new DeleteEntity(s, i)),
  fc.tuple(side, at, side).map(([s, i, viewer]) => new ReadEntities(s, i, viewer)),
  fc.tuple(side, at, recipientCreateBody).map(([s, i, body]) => new CreateRecipient(s, i, body)),
  fc.tuple(side, at, fc.nat({ max: 7 })).map(([s, i, which]) => new DeleteRecipient(s, i, which)),
  fc.tuple(side, at, side).map(([s, i, viewer]) => new ListRecipients(s, i, viewer)),
]

/** Runs per property unless the adapter author says otherwise: seconds on SQLite. */
export const defaultNumRuns = 25

/**
 * Random sequences of company, entity and recipient commands in two fresh workspaces per run,
 * checked against the model after every command. One storage serves every run: each run's
 * workspaces are new, and tenancy keeps the runs apart.
 */
export const runCompanyModel = async (harness: Harness, options: Pick<ContractSuiteOptions, "fastCheck">) => {
  const { numRuns = defaultNumRuns, seed, path, replayPath } = options.fastCheck ?? {}
  const setup = async () => ({
    model: { workspaces: [[], []] } as Model,
    real: {
      engine: harness.engine,
      actors: [await harness.workspace(), await harness.workspace()] as const,
      workspaces: [[], []],
    } as Real,
  })
  const commands = fc.commands(commandArbitraries, {
    maxCommands: 50,
    size: "max",
    ...(replayPath ? { replayPath } : {}),
  })
  await fc.assert(
    fc.asyncProperty(commands, (sequence) => fc.asyncModelRun(setup, sequence)),
    { numRuns, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) },
  )
}

/** The model-based run, as a group of one test. */
export const modelScenarios: ScenarioGroup = {
  title: "model",
  scenarios: [
    {
      id: "model.companies-entities-recipients",
      title: "random command sequences over two workspaces agree with a tiny model",
      timeout: 180_000,
      run: runCompanyModel,
    },
  ],
}
