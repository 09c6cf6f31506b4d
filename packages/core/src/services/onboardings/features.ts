import { Effect } from "effect"
import {
  Conflict,
  type FieldError,
  type Forbidden,
  Invalid,
  messages,
  NotFound,
  type Unauthenticated,
} from "../../errors.ts"
import { decideFeatureMove, featureMachine } from "../../machines/feature-machine.ts"
import { begin } from "../../machines/stored-machine.ts"
import {
  type Feature,
  FeatureEnable,
  type FeatureEnableBody,
  FeatureStatusChange,
  type FeatureStatusChangeBody,
  featureMessages,
  toFeature,
} from "../../model/feature.ts"
import type { ApplicationId, CompanyId, EntityId } from "../../model/ids.ts"
import { type BusinessDetails, onboardingStatusOfFeature, storedBusinessDetails } from "../../model/onboarding.ts"
import type { FeatureEnabled } from "../../model/types/feature.ts"
import type { SubmitOptions } from "../../model/types/hosted-page-token.ts"
import type { FeatureRecord, Repositories } from "../../ports/storage/index.ts"
import type { Actor } from "../steps/actor.ts"
import { applyDecision } from "../steps/decision-executor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { useUpHostedPageToken } from "../steps/hosted-page-token-use.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inTransaction, type Lifted, type ReadRepositories } from "../steps/transaction.ts"
import { inCompany, inWorkspace, readInCompany, writeAccess } from "../steps/use-case.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

/** The spec's table answers an unknown feature identifier as a bad request (`missing`), not `invalid`. */
const identifierIsBadRequest = { badRequestFields: ["feature_identifier"] }

/** The multi-currency account is offered to US entities only (spec, Feature states). */
const multiCurrencyCountry = "US"

const findEntity = (tx: Lifted<ReadRepositories>, companyId: CompanyId, entityId: EntityId) =>
  tx.entities
    .findActive(companyId, entityId)
    .pipe(
      Effect.flatMap((row) =>
        row ? Effect.succeed(row) : Effect.fail(new NotFound({ field: "entity_id", message: messages.entityNotFound })),
      ),
    )

/**
 * The workspace's feature with that application id, while its company and entity are live:
 * an application of a deleted entity is gone like the entity.
 */
const findApplication = (tx: Lifted<Repositories>, actor: Actor, applicationId: ApplicationId) =>
  Effect.gen(function* () {
    const notFound = new NotFound({ field: "application_id", message: featureMessages.applicationNotFound })
    const feature = yield* tx.features.findByApplicationId(actor.workspaceId, applicationId)
    if (feature === undefined) return yield* Effect.fail(notFound)
    const company = yield* tx.companies.find(actor.workspaceId, feature.company_id)
    const entity = yield* tx.entities.findActive(feature.company_id, feature.entity_id)
    if (company === undefined || company.deleted_at !== null || entity === undefined)
      return yield* Effect.fail(notFound)
    return feature
  })

/** A move the feature machine decided for a stored feature. */
type FeatureMove = NonNullable<ReturnType<typeof decideFeatureMove>>

/**
 * Stores `decision` for `current`: its status (one of racing moves wins, the others get
 * `conflict` on `status`), the onboarding's status following it, and the machine's actions.
 */
const carryOut = (
  ports: ServicePorts,
  tx: Lifted<Repositories>,
  actor: Actor,
  current: FeatureRecord,
  decision: FeatureMove,
) =>
  Effect.gen(function* () {
    const now = (yield* workspaceClock(ports, tx, actor.workspaceId)).now().toISOString()
    const moved = yield* applyDecision(featureMachine, decision, {
      compareAndSet: (status) =>
        Effect.gen(function* () {
          const moved = yield* tx.features.compareAndSetStatus(current.application_id, current.status, status, now)
          if (moved === undefined) {
            return yield* Effect.fail(new Conflict({ field: "status", message: featureMessages.statusRaced }))
          }
          // The entity's onboarding follows the feature (DECISIONS "Onboarding status").
          yield* tx.onboardings.setStatus(actor.workspaceId, moved.entity_id, {
            status: onboardingStatusOfFeature[moved.status],
            updated_at: now,
            ...(moved.status === "SUBMITTED" ? { submitted_at: now } : {}),
            ...(moved.status === "ACTIVE" ? { approved_at: now } : {}),
          })
          return moved
        }),
      carriers: (moved) => ({
        activate_entity_integration: () => tx.entities.markIntegrationActive(moved.company_id, moved.entity_id),
      }),
    })
    // A lost compare-and-set fails above: the row is always written here.
    if (moved === undefined) return yield* Effect.dieMessage("a feature's compare-and-set neither won nor failed")
    return moved
  })

/**
 * What an onboarding must hold before it is submitted: the business's name, its address (line 1,
 * city, postal code, country) and at least one person; each gap is an error on its form field.
 */
const missingForSubmission = (details: BusinessDetails | undefined, personCount: number): ReadonlyArray<FieldError> => {
  const address = details?.business_address
  const gaps: Array<FieldError> = []
  const required = (value: string | null | undefined, field: string, message: string) => {
    if (value === null || value === undefined || value.trim() === "") gaps.push({ field, message })
  }
  required(details?.business_name, "business_details.business_name", featureMessages.businessNameRequired)
  required(address?.line1, "business_address.line1", featureMessages.addressLineRequired)
  required(address?.city, "business_address.city", featureMessages.cityRequired)
  required(address?.postal_code, "business_address.postal_code", featureMessages.postalCodeRequired)
  required(address?.country_alpha2, "business_address.country_alpha2", featureMessages.countryRequired)
  if (personCount === 0) gaps.push({ field: "persons", message: featureMessages.personRequired })
  return gaps
}

/**
 * Use cases of entity features (the multi-currency account): enable and list, and the status
 * changes the provider's review makes, which the sandbox helper stands in for. A feature that
 * becomes ACTIVE gives its entity an active payment integration in the same transaction.
 */

export const makeFeatures = (ports: ServicePorts) => ({
  /**
   * The entity's features, oldest first.
   *
   * @example
   * const features = await engine.features.list(actor, cid, eid)
   */
  list: (actor: Actor, companyId: CompanyId, entityId: EntityId): Effect.Effect<ReadonlyArray<Feature>, NotFound> =>
    readInCompany(ports, actor, companyId, ({ tx, company }) =>
      Effect.gen(function* () {
        const entity = yield* findEntity(tx, company.id, entityId)
        const rows = yield* tx.features.listByEntity(entity.id)
        return rows.map(toFeature)
      }),
    ),

  /**
   * Enables a feature for a US entity: a new application in CREATED (`created: true`), or the
   * entity's application when it is still CREATED (`created: false`). One application per entity
   * and feature, also when enables race; an application past CREATED is `invalid` on `base`.
   *
   * @example
   * const { feature, created } = await engine.features.enable(actor, cid, eid, { feature_identifier: "multi_currency_account" })
   */
  enable: (
    actor: Actor,
    companyId: CompanyId,
    entityId: EntityId,
    body: FeatureEnableBody,
  ): Effect.Effect<FeatureEnabled, Invalid | Forbidden | NotFound> =>
    Effect.gen(function* () {
      const input = yield* decodeBody(FeatureEnable, body, identifierIsBadRequest)
      return yield* inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
        Effect.gen(function* () {
          const entity = yield* findEntity(tx, company.id, entityId)
          if (entity.country_alpha2 !== multiCurrencyCountry) {
            return yield* Effect.fail(Invalid.rule("entity", featureMessages.usEntitiesOnly))
          }
          const now = (yield* readClock).now().toISOString()
          const { inserted, feature } = yield* tx.features.insertOrGet({
            application_id: ports.ids.next("app"),
            workspace_id: actor.workspaceId,
            company_id: company.id,
            entity_id: entity.id,
            feature_identifier: input.feature_identifier,
            status: begin(featureMachine, undefined).status,
            machine_version: featureMachine.version,
            created_at: now,
            updated_at: now,
          })
          if (!inserted && feature.status !== "CREATED") {
            return yield* Effect.fail(Invalid.rule("base", featureMessages.alreadyExists(feature.status)))
          }
          return { feature: toFeature(feature), created: inserted }
        }),
      )
    }).pipe(writeAccess(actor)),

  /**
   * Moves an application to `status` (SUBMITTED, ACTIVE or ACTION_REQUIRED) as the provider's
   * review would, along the transitions the feature machine allows (else `invalid` on
   * `status`); the sandbox helper's use case. ACTIVE marks the entity's payment integration active. Of racing
   * changes one wins; the others get `conflict` on `status`.
   *
   * @example
   * declare const feature: Feature
   * await engine.features.setStatus(actor, feature.application_id, "SUBMITTED")
   * await engine.features.setStatus(actor, feature.application_id, "ACTIVE")
   */
  setStatus: (
    actor: Actor,
    applicationId: ApplicationId,
    status: FeatureStatusChangeBody["status"],
  ): Effect.Effect<Feature, Invalid | Forbidden | NotFound | Conflict> =>
    Effect.gen(function* () {
      const { status: target } = yield* decodeBody(FeatureStatusChange, { status })
      return yield* inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const current = yield* findApplication(tx, actor, applicationId)
          const decision = decideFeatureMove(current, target)
          if (decision === undefined) {
            return yield* Effect.fail(Invalid.rule("status", featureMessages.transitionRefused(current.status, target)))
          }
          return toFeature(yield* carryOut(ports, tx, actor, current, decision))
        }),
      )
    }).pipe(writeAccess(actor)),

  /**
   * The person's submission of the entity's application (its onboarding done, or the information
   * asked for given): CREATED or ACTION_REQUIRED moves to SUBMITTED, its onboarding to submitted.
   * The application must be the entity's (else `not_found` on `application_id`); an onboarding
   * without the business's name, address or a person is `invalid` on each missing field; an
   * application in another status is `invalid` on `status`.
   *
   * @example
   * declare const applicationId: ApplicationId
   * await engine.features.submit(actor, { companyId, entityId, applicationId })
   */
  submit: (
    actor: Actor,
    scope: { readonly companyId: CompanyId; readonly entityId: EntityId; readonly applicationId: ApplicationId },
    options: SubmitOptions = {},
  ): Effect.Effect<Feature, Invalid | Forbidden | NotFound | Conflict | Unauthenticated> =>
    inWorkspace(ports, actor, ({ tx, readClock }) =>
      Effect.gen(function* () {
        const current = yield* findApplication(tx, actor, scope.applicationId)
        if (current.company_id !== scope.companyId || current.entity_id !== scope.entityId) {
          return yield* Effect.fail(
            new NotFound({ field: "application_id", message: featureMessages.applicationNotFound }),
          )
        }
        const decision = decideFeatureMove(current, "SUBMITTED")
        if (decision === undefined) {
          return yield* Effect.fail(
            Invalid.rule("status", featureMessages.transitionRefused(current.status, "SUBMITTED")),
          )
        }
        const onboarding = yield* tx.onboardings.findByEntity(actor.workspaceId, current.entity_id)
        const persons = yield* tx.onboardingPersons.listAll(actor.workspaceId, current.entity_id)
        const gaps = missingForSubmission(
          onboarding === undefined ? undefined : storedBusinessDetails(onboarding),
          persons.length,
        )
        if (gaps.length > 0) return yield* Effect.fail(new Invalid({ kind: "invalid", errors: gaps }))
        if (options.usingToken !== undefined) {
          const clock = yield* readClock
          yield* useUpHostedPageToken(tx, options.usingToken, clock.now())
        }
        return toFeature(yield* carryOut(ports, tx, actor, current, decision))
      }),
    ).pipe(writeAccess(actor)),
})

export type Features = ReturnType<typeof makeFeatures>
