import type { EntityRecord } from "../../model/types/entity.ts"
import type { CompanyId, EntityId } from "../../model/types/ids.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { EntityRecord } from "../../model/types/entity.ts"

export interface EntityRepository {
  /**
   * Inserts the entity unless its company already has one that is not deleted, and says whether
   * it did. Must hold under concurrency: of two racing inserts for one company, one returns false.
   */
  insertIfNoneActive(row: EntityRecord): Awaitable<boolean>
  /** The entity of that company if it is not deleted. */
  findActive(companyId: CompanyId, id: EntityId): Awaitable<EntityRecord | undefined>
  /** The entity with that id if it is not deleted, whatever its company (check the company's workspace). */
  findActiveById(id: EntityId): Awaitable<EntityRecord | undefined>
  /** The company's entity that is not deleted, if any. */
  findActiveOfCompany(companyId: CompanyId): Awaitable<EntityRecord | undefined>
  /**
   * Writes every field of the row with that id except `payment_integration_active`, which only
   * {@link EntityRepository.markIntegrationActive} sets: an update built from a read made before
   * the entity's feature became ACTIVE must not clear it.
   */
  update(row: EntityRecord): Awaitable<void>
  /**
   * Sets `payment_integration_active` on the company's entity, leaving every other column as it
   * is; says whether a live entity was marked. The flag is never cleared.
   *
   * @example
   * declare const feature: FeatureRecord
   * await tx.entities.markIntegrationActive(feature.company_id, feature.entity_id)
   */
  markIntegrationActive(companyId: CompanyId, id: EntityId): Awaitable<boolean>
  listActive(companyId: CompanyId, window: Window): Awaitable<Slice<EntityRecord>>
}
