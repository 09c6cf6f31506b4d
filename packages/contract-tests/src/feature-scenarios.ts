import {
  type Actor,
  type ApplicationId,
  brandId,
  type CompanyId,
  type Engine,
  type EntityId,
  type FeatureEnableBody,
  type FeatureRecord,
  type FeatureStatusChangeBody,
  isDomainError,
  messages,
  type Storage,
  type WorkspaceId,
} from "@payments-engine/core"
import { featureMessages } from "@payments-engine/core/effect"
import { expect } from "vitest"
import { expectRefusal, refusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { counterIds } from "./test-ports.ts"

const multiCurrency = { feature_identifier: "multi_currency_account" } as const

/** A new company of the actor's workspace with its entity in `country`. */
const companyWithEntity = async (engine: Engine, actor: Actor, country = "US") => {
  const company = await engine.companies.create(actor, { name: `Acme ${country}`, country, default_currency: "USD" })
  const entity = await engine.entities.create(actor, company.id, { name: `Acme ${country}`, country_alpha2: country })
  return { company, entity }
}

/** The stored row of a multi-currency application just enabled at `at`. */
const createdFeatureRow = (
  applicationId: ApplicationId,
  actor: Actor,
  companyId: CompanyId,
  entityId: EntityId,
  at: string,
): FeatureRecord => ({
  application_id: applicationId,
  workspace_id: actor.workspaceId,
  company_id: companyId,
  entity_id: entityId,
  feature_identifier: "multi_currency_account",
  status: "CREATED",
  machine_version: 1,
  created_at: at,
  updated_at: at,
})

const storedFeature = (storage: Storage, workspaceId: WorkspaceId, applicationId: ApplicationId) =>
  storage.transaction((tx) => tx.features.findByApplicationId(workspaceId, applicationId))

const storedEntity = (storage: Storage, companyId: CompanyId, entityId: EntityId) =>
  storage.transaction((tx) => tx.entities.findActive(companyId, entityId))

/** Features: enable and list the multi-currency account, move it through its machine, and what ACTIVE unlocks. */
export const featureScenarios: ScenarioGroup = {
  title: "features",
  scenarios: [
    {
      id: "features.enable-and-list",
      title:
        "enabling creates one CREATED application per entity, enabling again answers the same one; a feature row round-trips and is found only in its workspace",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        const { company, entity } = await companyWithEntity(engine, actor)
        expect(await engine.features.list(actor, company.id, entity.id)).toEqual([])
        const at = clock.now().toISOString()
        const first = await engine.features.enable(actor, company.id, entity.id, multiCurrency)
        expect(first).toEqual({
          created: true,
          feature: {
            feature_identifier: "multi_currency_account",
            feature_name: "Multi-Currency Account",
            application_id: expect.any(String),
            status: "CREATED",
          },
        })
        clock.advance(1000)
        expect(await engine.features.enable(actor, company.id, entity.id, multiCurrency)).toEqual({
          created: false,
          feature: first.feature,
        })
        expect(await engine.features.list(actor, company.id, entity.id)).toEqual([first.feature])

        const row = createdFeatureRow(first.feature.application_id, actor, company.id, entity.id, at)
        expect(await storedFeature(storage, actor.workspaceId, row.application_id)).toEqual(row)
        const stranger = await workspace()
        expect(await storedFeature(storage, stranger.workspaceId, row.application_id)).toBeUndefined()
        // The port keeps one row per entity and identifier and hands back the stored one...
        const later = clock.now().toISOString()
        const duplicate = {
          ...row,
          application_id: brandId("app", `${row.application_id}_again`),
          created_at: later,
          updated_at: later,
        }
        expect(await storage.transaction((tx) => tx.features.insertOrGet(duplicate))).toEqual({
          inserted: false,
          feature: row,
        })
        expect(await storedFeature(storage, actor.workspaceId, duplicate.application_id)).toBeUndefined()
        // ...but another identifier of the same entity is a row of its own, listed in id order.
        const other = {
          ...duplicate,
          application_id: brandId("app", `${row.application_id}_other`),
          feature_identifier: "other_feature",
        }
        expect(await storage.transaction((tx) => tx.features.insertOrGet(other))).toEqual({
          inserted: true,
          feature: other,
        })
        expect(await storage.transaction((tx) => tx.features.listByEntity(entity.id))).toEqual([row, other])

        const enable = (body: unknown, who: Actor = actor) =>
          engine.features.enable(who, company.id, entity.id, body as FeatureEnableBody)
        await expectRefusal(enable({}), "missing", "feature_identifier", featureMessages.identifierRequired)
        for (const wrong of ["MULTI_CURRENCY_ACCOUNT", "payments", "", 7, null, ["multi_currency_account"]]) {
          await expectRefusal(
            enable({ feature_identifier: wrong }),
            "missing",
            "feature_identifier",
            featureMessages.identifierInvalid,
          )
        }
        await expectRefusal(enable("multi_currency_account"), "missing", "body", "Body must be a JSON object")
        await expectRefusal(
          enable(multiCurrency, { ...actor, scope: "read" }),
          "forbidden",
          "base",
          messages.readOnlyKey,
        )

        const british = await companyWithEntity(engine, actor, "GB")
        await expectRefusal(
          engine.features.enable(actor, british.company.id, british.entity.id, multiCurrency),
          "invalid",
          "entity",
          featureMessages.usEntitiesOnly,
        )
        expect(await engine.features.list(actor, british.company.id, british.entity.id)).toEqual([])

        const companyGone = (call: Promise<unknown>) =>
          expectRefusal(call, "not_found", "company_id", messages.companyNotFound)
        const entityGone = (call: Promise<unknown>) =>
          expectRefusal(call, "not_found", "entity_id", messages.entityNotFound)
        await companyGone(engine.features.list(actor, brandId("cmp", "cmp_unknown"), entity.id))
        await companyGone(engine.features.enable(actor, brandId("cmp", "cmp_unknown"), entity.id, multiCurrency))
        await entityGone(engine.features.list(actor, company.id, brandId("ent", "ent_unknown")))
        await entityGone(engine.features.enable(actor, company.id, brandId("ent", "ent_unknown"), multiCurrency))
        // An entity is reached only under its own company.
        await entityGone(engine.features.list(actor, british.company.id, entity.id))
        await entityGone(engine.features.enable(actor, british.company.id, entity.id, multiCurrency))
      },
    },
    {
      id: "features.status-machine",
      title:
        "an application moves only CREATED -> SUBMITTED -> ACTIVE or ACTION_REQUIRED -> SUBMITTED (else invalid `status`); enabling is refused as invalid `base` once it left CREATED",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        const { company, entity } = await companyWithEntity(engine, actor)
        const created = clock.now().toISOString()
        const { feature } = await engine.features.enable(actor, company.id, entity.id, multiCurrency)
        const app = feature.application_id
        const move = (status: unknown) =>
          engine.features.setStatus(actor, app, status as FeatureStatusChangeBody["status"])
        const refused = (from: string, to: string) =>
          expectRefusal(move(to), "invalid", "status", featureMessages.transitionRefused(from, to))
        const enableRefused = (status: string) =>
          expectRefusal(
            engine.features.enable(actor, company.id, entity.id, multiCurrency),
            "invalid",
            "base",
            featureMessages.alreadyExists(status),
          )

        await refused("CREATED", "ACTIVE")
        await refused("CREATED", "ACTION_REQUIRED")
        for (const wrong of ["CREATED", "active", "APPROVED", 1, null, { status: "ACTIVE" }]) {
          await expectRefusal(move(wrong), "invalid", "status", featureMessages.statusInvalid)
        }
        await expectRefusal(move(undefined), "missing", "status", featureMessages.statusRequired)
        await expectRefusal(
          engine.features.setStatus({ ...actor, scope: "read" }, app, "SUBMITTED"),
          "forbidden",
          "base",
          messages.readOnlyKey,
        )
        await expectRefusal(
          engine.features.setStatus(actor, brandId("app", `${app}_unknown`), "SUBMITTED"),
          "not_found",
          "application_id",
          featureMessages.applicationNotFound,
        )
        expect(await engine.features.list(actor, company.id, entity.id)).toEqual([feature])

        clock.advance(1000)
        expect(await move("SUBMITTED")).toEqual({ ...feature, status: "SUBMITTED" })
        expect(await storedFeature(storage, actor.workspaceId, app)).toMatchObject({
          status: "SUBMITTED",
          created_at: created,
          updated_at: clock.now().toISOString(),
        })
        await enableRefused("SUBMITTED")
        await refused("SUBMITTED", "SUBMITTED")
        expect(await move("ACTION_REQUIRED")).toEqual({ ...feature, status: "ACTION_REQUIRED" })
        await enableRefused("ACTION_REQUIRED")
        await refused("ACTION_REQUIRED", "ACTIVE")
        await refused("ACTION_REQUIRED", "ACTION_REQUIRED")
        expect(await move("SUBMITTED")).toEqual({ ...feature, status: "SUBMITTED" })
        expect((await storedEntity(storage, company.id, entity.id))?.payment_integration_active).toBe(false)
        expect(await move("ACTIVE")).toEqual({ ...feature, status: "ACTIVE" })
        for (const to of ["SUBMITTED", "ACTION_REQUIRED", "ACTIVE"]) await refused("ACTIVE", to)
        await enableRefused("ACTIVE")
        expect(await engine.features.list(actor, company.id, entity.id)).toEqual([{ ...feature, status: "ACTIVE" }])

        // The port: a compare-and-set from a status the row is not in changes nothing and returns nothing.
        const before = await storedFeature(storage, actor.workspaceId, app)
        const later = new Date(clock.now().getTime() + 60_000).toISOString()
        const stale = await storage.transaction((tx) =>
          Promise.all([
            tx.features.compareAndSetStatus(app, "SUBMITTED", "ACTION_REQUIRED", later),
            tx.features.compareAndSetStatus(brandId("app", `${app}_unknown`), "ACTIVE", "SUBMITTED", later),
          ]),
        )
        expect(stale).toEqual([undefined, undefined])
        expect(await storedFeature(storage, actor.workspaceId, app)).toEqual(before)
      },
    },
    {
      id: "features.submit",
      title:
        "the person's submission moves CREATED and ACTION_REQUIRED to SUBMITTED (the onboarding to submitted) once the business's name, address and a person are given; another entity's application is not found",
      run: async ({ engine, workspace, clock }) => {
        const actor = await workspace()
        const { company, entity } = await companyWithEntity(engine, actor)
        const other = await companyWithEntity(engine, actor)
        const { feature } = await engine.features.enable(actor, company.id, entity.id, multiCurrency)
        const scope = { companyId: company.id, entityId: entity.id, applicationId: feature.application_id }
        const submit = () => engine.features.submit(actor, scope)

        const nothingYet = await refusal(submit())
        expect(nothingYet.errors).toEqual([
          { field: "business_details.business_name", message: featureMessages.businessNameRequired },
          { field: "business_address.line1", message: featureMessages.addressLineRequired },
          { field: "business_address.city", message: featureMessages.cityRequired },
          { field: "business_address.postal_code", message: featureMessages.postalCodeRequired },
          { field: "business_address.country_alpha2", message: featureMessages.countryRequired },
          { field: "persons", message: featureMessages.personRequired },
        ])
        await engine.onboardings.update(actor, company.id, entity.id, {
          business_details: { business_name: "Acme" },
          business_address: { line1: "1 Main St", city: "Springfield", postal_code: "12345", country_alpha2: "US" },
        })
        await expectRefusal(submit(), "invalid", "persons", featureMessages.personRequired)
        await engine.onboardings.createPerson(actor, company.id, entity.id, {
          first_name: "Ada",
          last_name: "Lovelace",
        })
        await expectRefusal(
          engine.features.submit(actor, { ...scope, entityId: other.entity.id }),
          "not_found",
          "application_id",
          featureMessages.applicationNotFound,
        )
        await expectRefusal(
          engine.features.submit({ ...actor, scope: "read" }, scope),
          "forbidden",
          "base",
          messages.readOnlyKey,
        )
        expect((await engine.features.list(actor, company.id, entity.id))[0]?.status).toBe("CREATED")

        clock.advance(1000)
        expect(await submit()).toEqual({ ...feature, status: "SUBMITTED" })
        expect(await engine.onboardings.get(actor, company.id, entity.id)).toMatchObject({
          status: "submitted",
          submitted_at: clock.now().toISOString(),
        })
        await expectRefusal(submit(), "invalid", "status", featureMessages.transitionRefused("SUBMITTED", "SUBMITTED"))
        await engine.features.setStatus(actor, feature.application_id, "ACTION_REQUIRED")
        expect(await submit()).toEqual({ ...feature, status: "SUBMITTED" })
      },
    },
    {
      id: "features.active-integration",
      title:
        "ACTIVE gives the entity its active payment integration in the same change, after which the entity and its company refuse update and delete (forbidden); a stale entity update cannot clear it",
      run: async ({ engine, storage, workspace }) => {
        const actor = await workspace()
        const { company, entity } = await companyWithEntity(engine, actor)
        const other = await companyWithEntity(engine, actor)
        const { feature } = await engine.features.enable(actor, company.id, entity.id, multiCurrency)
        await engine.features.setStatus(actor, feature.application_id, "SUBMITTED")
        // Until ACTIVE, the entity can still change.
        const renamed = await engine.entities.update(actor, company.id, entity.id, { name: "Acme Renamed" })
        const beforeActive = await storedEntity(storage, company.id, entity.id)
        expect(beforeActive).toMatchObject({ name: "Acme Renamed", payment_integration_active: false })

        expect(await engine.features.setStatus(actor, feature.application_id, "ACTIVE")).toEqual({
          ...feature,
          status: "ACTIVE",
        })
        // Only the flag changes: the entity as the API shows it (updated_at included) stays the same.
        expect(await storedEntity(storage, company.id, entity.id)).toEqual({
          ...beforeActive,
          payment_integration_active: true,
        })
        expect(await engine.entities.get(actor, company.id, entity.id)).toEqual(renamed)
        expect((await storedEntity(storage, other.company.id, other.entity.id))?.payment_integration_active).toBe(false)

        await expectRefusal(
          engine.entities.update(actor, company.id, entity.id, { name: "Nope" }),
          "forbidden",
          "base",
          messages.entityUpdateIntegration,
        )
        await expectRefusal(
          engine.entities.delete(actor, company.id, entity.id),
          "forbidden",
          "base",
          messages.entityDeleteIntegration,
        )
        await expectRefusal(
          engine.companies.update(actor, company.id, { name: "Nope" }),
          "forbidden",
          "base",
          messages.companyUpdateIntegration,
        )
        await expectRefusal(
          engine.companies.delete(actor, company.id),
          "forbidden",
          "base",
          messages.companyDeleteIntegration,
        )
        expect((await engine.companies.update(actor, other.company.id, { name: "Other Renamed" })).name).toBe(
          "Other Renamed",
        )

        // An update built from a read made before ACTIVE leaves the flag set.
        if (beforeActive === undefined) throw new Error("entity not found")
        await storage.transaction((tx) => tx.entities.update({ ...beforeActive, name: "Stale Write" }))
        expect(await storedEntity(storage, company.id, entity.id)).toEqual({
          ...beforeActive,
          name: "Stale Write",
          payment_integration_active: true,
        })

        // The port marks only a live entity of the company it is given.
        const mark = (companyId: CompanyId, entityId: EntityId) =>
          storage.transaction((tx) => tx.entities.markIntegrationActive(companyId, entityId))
        expect(await mark(company.id, other.entity.id)).toBe(false)
        expect(await mark(company.id, brandId("ent", "ent_unknown"))).toBe(false)
        expect((await storedEntity(storage, other.company.id, other.entity.id))?.payment_integration_active).toBe(false)
        await engine.entities.delete(actor, other.company.id, other.entity.id)
        expect(await mark(other.company.id, other.entity.id)).toBe(false)
        expect(await mark(company.id, entity.id)).toBe(true)
      },
    },
    {
      id: "features.tenancy",
      title:
        "another workspace, another company, a deleted entity or a deleted company reach no feature (not_found); a new entity starts without one",
      run: async ({ engine, workspace }) => {
        const actor = await workspace()
        const stranger = await workspace()
        const { company, entity } = await companyWithEntity(engine, actor)
        const { feature } = await engine.features.enable(actor, company.id, entity.id, multiCurrency)
        const companyGone = (call: Promise<unknown>) =>
          expectRefusal(call, "not_found", "company_id", messages.companyNotFound)
        const entityGone = (call: Promise<unknown>) =>
          expectRefusal(call, "not_found", "entity_id", messages.entityNotFound)
        const applicationGone = (call: Promise<unknown>) =>
          expectRefusal(call, "not_found", "application_id", featureMessages.applicationNotFound)

        await companyGone(engine.features.list(stranger, company.id, entity.id))
        await companyGone(engine.features.enable(stranger, company.id, entity.id, multiCurrency))
        await applicationGone(engine.features.setStatus(stranger, feature.application_id, "SUBMITTED"))
        const theirs = await companyWithEntity(engine, stranger)
        await entityGone(engine.features.list(stranger, theirs.company.id, entity.id))
        await entityGone(engine.features.enable(stranger, theirs.company.id, entity.id, multiCurrency))
        expect(await engine.features.list(actor, company.id, entity.id)).toEqual([feature])

        await engine.entities.delete(actor, company.id, entity.id)
        await applicationGone(engine.features.setStatus(actor, feature.application_id, "SUBMITTED"))
        await entityGone(engine.features.list(actor, company.id, entity.id))
        const next = await engine.entities.create(actor, company.id, { name: "Acme Again", country_alpha2: "US" })
        expect(await engine.features.list(actor, company.id, next.id)).toEqual([])
        const fresh = await engine.features.enable(actor, company.id, next.id, multiCurrency)
        expect(fresh.created).toBe(true)
        expect(fresh.feature.application_id).not.toBe(feature.application_id)

        await engine.companies.delete(actor, company.id)
        await companyGone(engine.features.list(actor, company.id, next.id))
        await companyGone(engine.features.enable(actor, company.id, next.id, multiCurrency))
        await applicationGone(engine.features.setStatus(actor, fresh.feature.application_id, "SUBMITTED"))
      },
    },
  ],
}

const companiesRacing = 4

/** Races on features that the storage must decide: one application per entity, one status change at a time. */
export const featureConcurrencyScenarios: ScenarioGroup = {
  title: "feature concurrency",
  scenarios: [
    {
      id: "concurrency.feature-enable",
      title:
        "concurrent enables for one entity make one application and all callers get it; racing inserts on the port, one wins",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        const entities = []
        for (let n = 0; n < companiesRacing; n += 1) entities.push(await companyWithEntity(engine, actor))
        const races = await Promise.all(
          entities.map(({ company, entity }) =>
            Promise.all([1, 2, 3].map(() => engine.features.enable(actor, company.id, entity.id, multiCurrency))),
          ),
        )
        for (const [i, outcomes] of races.entries()) {
          const { company, entity } = entities[i]!
          expect(new Set(outcomes.map((o) => o.feature.application_id)).size).toBe(1)
          expect(outcomes.filter((o) => o.created)).toHaveLength(1)
          expect(await engine.features.list(actor, company.id, entity.id)).toEqual([outcomes[0]!.feature])
        }

        const { company, entity } = await companyWithEntity(engine, actor)
        const ids = counterIds()
        const at = clock.now().toISOString()
        const rows = [1, 2, 3].map(() => createdFeatureRow(ids.next("app"), actor, company.id, entity.id, at))
        const inserts = await Promise.all(rows.map((row) => storage.transaction((tx) => tx.features.insertOrGet(row))))
        const winners = inserts.filter((outcome) => outcome.inserted)
        expect(winners).toHaveLength(1)
        for (const outcome of inserts) expect(outcome.feature).toEqual(winners[0]!.feature)
        expect(await storage.transaction((tx) => tx.features.listByEntity(entity.id))).toEqual([winners[0]!.feature])
      },
    },
    {
      id: "concurrency.feature-status",
      title:
        "of racing status changes exactly one is applied, and the entity's integration follows the winner; racing compare-and-sets on the port, one wins",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        for (let n = 0; n < companiesRacing; n += 1) {
          const { company, entity } = await companyWithEntity(engine, actor)
          const { feature } = await engine.features.enable(actor, company.id, entity.id, multiCurrency)
          await engine.features.setStatus(actor, feature.application_id, "SUBMITTED")
          const targets =
            n % 2 === 0 ? (["ACTIVE", "ACTION_REQUIRED"] as const) : (["ACTION_REQUIRED", "ACTIVE"] as const)
          const outcomes = await Promise.allSettled(
            targets.map((status) => engine.features.setStatus(actor, feature.application_id, status)),
          )
          const won = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value.status] : []))
          expect(won).toHaveLength(1)
          const winner = won[0]!
          const loser = targets.find((status) => status !== winner)!
          const lost = outcomes.find((o) => o.status === "rejected")?.reason
          if (!isDomainError(lost)) throw lost
          // A storage that serializes transactions shows the loser the winner's status (invalid);
          // one that runs them side by side lets the compare-and-set decide (conflict).
          expect([
            {
              kind: "invalid",
              errors: [{ field: "status", message: featureMessages.transitionRefused(winner, loser) }],
            },
            { kind: "conflict", errors: [{ field: "status", message: featureMessages.statusRaced }] },
          ]).toContainEqual({ kind: lost.kind, errors: lost.errors })
          expect(await engine.features.list(actor, company.id, entity.id)).toEqual([{ ...feature, status: winner }])
          expect((await storedEntity(storage, company.id, entity.id))?.payment_integration_active).toBe(
            winner === "ACTIVE",
          )
        }

        const { company, entity } = await companyWithEntity(engine, actor)
        const { feature } = await engine.features.enable(actor, company.id, entity.id, multiCurrency)
        const before = await storedFeature(storage, actor.workspaceId, feature.application_id)
        const later = new Date(clock.now().getTime() + 1000).toISOString()
        const moves = await Promise.all(
          (["SUBMITTED", "ACTION_REQUIRED"] as const).map((to) =>
            storage.transaction((tx) => tx.features.compareAndSetStatus(feature.application_id, "CREATED", to, later)),
          ),
        )
        const applied = moves.filter((row) => row !== undefined)
        expect(applied).toHaveLength(1)
        const winner = applied[0]?.status
        expect(["SUBMITTED", "ACTION_REQUIRED"]).toContain(winner)
        expect(applied[0]).toEqual({ ...before, status: winner, updated_at: later })
        expect(await storedFeature(storage, actor.workspaceId, feature.application_id)).toEqual(applied[0])
      },
    },
  ],
}
