import { Effect } from "effect"
import { Forbidden, messages, NotFound } from "../../errors.ts"
import type { CompanyId, EntityId } from "../../model/ids.ts"
import { onboardingMessages } from "../../model/onboarding.ts"
import type { Repositories, Slice, Window } from "../../ports/storage/index.ts"
import { type PagePolicy, type PageQuery, pageOffset, parsePageRequest, toPage } from "../../rules/paging.ts"
import type { Actor } from "./actor.ts"
import { findLiveCompany } from "./lookups.ts"
import type { ServicePorts } from "./service-ports.ts"
import { inRead, type Lifted, type ReadRepositories } from "./transaction.ts"

/**
 * The entity of an onboarding request: the company found in the actor's workspace, the entity
 * in the company; another company's or workspace's entity is `not_found` like a missing one.
 */
export const findOnboardingEntity = (
  tx: Lifted<ReadRepositories>,
  actor: Actor,
  companyId: CompanyId,
  entityId: EntityId,
) =>
  Effect.gen(function* () {
    const company = yield* findLiveCompany(tx, actor, companyId)
    const entity = yield* tx.entities.findActive(company.id, entityId)
    if (entity === undefined) {
      return yield* Effect.fail(new NotFound({ field: "entity_id", message: messages.entityNotFound }))
    }
    return entity
  })

/**
 * The entity as {@link findOnboardingEntity} finds it, unless its payment integration is active:
 * then `forbidden` on `base` with `message` (the onboarding is read-only from then on): the
 * spec's message for changing its persons and documents unless told otherwise.
 */
export const findChangeableOnboardingEntity = (
  tx: Lifted<Repositories>,
  actor: Actor,
  companyId: CompanyId,
  entityId: EntityId,
  message: string = onboardingMessages.modifyIntegration,
) =>
  findOnboardingEntity(tx, actor, companyId, entityId).pipe(
    Effect.filterOrFail(
      (entity) => !entity.payment_integration_active,
      () => new Forbidden({ field: "base", message }),
    ),
  )

/**
 * A page of what an entity's onboarding holds (its persons, its attachments): the entity found as
 * {@link findOnboardingEntity} finds it, then `slice` of it for the page `query` asks for, each
 * row shown by `view`.
 */
export const onboardingPage = <Row, T>(
  ports: Pick<ServicePorts, "storage">,
  actor: Actor,
  scope: { readonly companyId: CompanyId; readonly entityId: EntityId },
  query: PageQuery,
  policy: PagePolicy,
  slice: (tx: Lifted<ReadRepositories>, entityId: EntityId, window: Window) => Effect.Effect<Slice<Row>>,
  view: (row: Row) => T,
) =>
  Effect.gen(function* () {
    const request = yield* parsePageRequest(query, policy)
    return yield* inRead(ports.storage, (tx) =>
      Effect.gen(function* () {
        const entity = yield* findOnboardingEntity(tx, actor, scope.companyId, scope.entityId)
        const rows = yield* slice(tx, entity.id, { offset: pageOffset(request), limit: request.perPage })
        return toPage(rows.rows.map(view), rows.total, request)
      }),
    )
  })
