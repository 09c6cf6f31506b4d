import type { EntityId, FeatureRecord, FeatureRepository, FeatureStatusValue } from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { FeaturesTable, StorageTables } from "../storage-tables.ts"
import { insertOrRead } from "./insert-or-read.ts"

type Db = Kysely<StorageTables>

const toFeature = (row: Selectable<FeaturesTable>): FeatureRecord => ({
  ...row,
  status: row.status as FeatureStatusValue,
  machine_version: Number(row.machine_version),
})

/**
 * The feature repository over one Kysely handle. `insertOrGet` lets the unique index on
 * (`entity_id`, `feature_identifier`) decide, and `compareAndSetStatus` reads its outcome from
 * `RETURNING`, so both hold between concurrent transactions on Postgres.
 *
 * @example
 * const features = await db.transaction().execute(async (trx) => kyselyFeatureRepository(trx).listByEntity(entityId))
 */
export const kyselyFeatureRepository = (db: Db): FeatureRepository => {
  const findOfEntity = async (entityId: EntityId, identifier: string) => {
    const row = await db
      .selectFrom("features")
      .selectAll()
      .where("entity_id", "=", entityId)
      .where("feature_identifier", "=", identifier)
      .executeTakeFirst()
    return row === undefined ? undefined : toFeature(row)
  }

  return {
    insertOrGet: async (row) => {
      const outcome = await insertOrRead(
        () =>
          db
            .insertInto("features")
            .values({ ...row })
            .onConflict((oc) => oc.columns(["entity_id", "feature_identifier"]).doNothing())
            .returningAll()
            .executeTakeFirst(),
        () => findOfEntity(row.entity_id, row.feature_identifier),
        `feature ${row.feature_identifier} of entity ${row.entity_id} neither inserted nor found`,
      )
      return "inserted" in outcome
        ? { inserted: true, feature: toFeature(outcome.inserted) }
        : { inserted: false, feature: outcome.existing }
    },
    findByApplicationId: async (workspaceId, applicationId) => {
      const row = await db
        .selectFrom("features")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("application_id", "=", applicationId)
        .executeTakeFirst()
      return row === undefined ? undefined : toFeature(row)
    },
    listByEntity: async (entityId) =>
      (
        await db
          .selectFrom("features")
          .selectAll()
          .where("entity_id", "=", entityId)
          .orderBy("application_id")
          .execute()
      ).map(toFeature),
    compareAndSetStatus: async (applicationId, from, to, updatedAt) => {
      const row = await db
        .updateTable("features")
        .set({ status: to, updated_at: updatedAt })
        .where("application_id", "=", applicationId)
        .where("status", "=", from)
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toFeature(row)
    },
  }
}
