import type { FeatureRecord, FeatureStatusValue } from "../../model/types/feature.ts"
import type { ApplicationId, EntityId, WorkspaceId } from "../../model/types/ids.ts"
import type { Awaitable } from "../awaitable.ts"

export type { FeatureRecord, FeatureStatusValue } from "../../model/types/feature.ts"

/** What {@link FeatureRepository.insertOrGet} did: inserted the row, or found the entity's one. */
export interface FeatureInsertOutcome {
  readonly inserted: boolean
  /** The row stored for the entity and identifier: the new one, or the one already there. */
  readonly feature: FeatureRecord
}

export interface FeatureRepository {
  /**
   * Inserts the feature unless the entity already has one with the same `feature_identifier`,
   * which it then returns unchanged. Must hold under concurrency: of two racing inserts for one
   * entity and identifier, one is told `inserted: false` and both get the same stored row.
   */
  insertOrGet(row: FeatureRecord): Awaitable<FeatureInsertOutcome>
  /** The feature with that application id if it belongs to the workspace. */
  findByApplicationId(workspaceId: WorkspaceId, applicationId: ApplicationId): Awaitable<FeatureRecord | undefined>
  /** The entity's features, in application id order. */
  listByEntity(entityId: EntityId): Awaitable<ReadonlyArray<FeatureRecord>>
  /**
   * Moves the feature from `from` to `to` (and writes `updatedAt`) only if it is still in `from`;
   * the updated row, or undefined when the row is missing or another writer moved it first.
   */
  compareAndSetStatus(
    applicationId: ApplicationId,
    from: FeatureStatusValue,
    to: FeatureStatusValue,
    updatedAt: string,
  ): Awaitable<FeatureRecord | undefined>
}
