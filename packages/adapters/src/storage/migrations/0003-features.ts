import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createTable } from "./column-helpers.ts"

/** Third schema: entity features (the multi-currency account applications). */
export const featuresSchema = (dialect: StorageDialect): Migration => ({
  async up(db) {
    const { key, text, integer, reference } = columnHelpers(dialect)

    await createTable(
      db,
      "features",
      {
        application_id: key,
        workspace_id: text,
        company_id: text,
        entity_id: reference("entities.id"),
        feature_identifier: text,
        status: text,
        machine_version: integer,
        created_at: text,
        updated_at: text,
      },
      // One application per entity and feature, decided by the database even when enables race.
      (t) => t.addUniqueConstraint("features_entity_identifier_key", ["entity_id", "feature_identifier"]),
    )
  },
})
