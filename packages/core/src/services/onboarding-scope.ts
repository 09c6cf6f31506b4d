import { Effect } from "effect"
import { Forbidden, messages, NotFound } from "../errors.ts"
import type { CompanyId, EntityId } from "../model/ids.ts"
import type { Repositories } from "../ports/storage/index.ts"
import type { Actor } from "./actor.ts"
import { findLiveCompany } from "./scope.ts"
import type { Lifted } from "./transaction.ts"

/**
 * The entity of an onboarding request: the company found in the actor's workspace, the entity
 * in the company; another company's or workspace's entity is `not_found` like a missing one.
 */
export const findOnboardingEntity = (
  tx: Lifted<Repositories>,
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
 * then `forbidden` on `base` with `message` (the onboarding is read-only from then on).
 */
export const findChangeableOnboardingEntity = (
  tx: Lifted<Repositories>,
  actor: Actor,
  companyId: CompanyId,
  entityId: EntityId,
  message: string,
) =>
  findOnboardingEntity(tx, actor, companyId, entityId).pipe(
    Effect.filterOrFail(
      (entity) => !entity.payment_integration_active,
      () => new Forbidden({ field: "base", message }),
    ),
  )
