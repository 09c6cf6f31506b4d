import { type Kysely, type Migration, sql } from "kysely"
import type { StorageDialect } from "./migrations.ts"

/** Third schema: entity features (the multi-currency account applications). */
export const featuresSchema = (dialect: StorageDialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const text = dialect === "postgres" ? sql`text collate "C"` : sql`text`

    await db.schema
      .createTable("features")
      .addColumn("application_id", text, (c) => c.primaryKey())
      .addColumn("workspace_id", text, (c) => c.notNull())
      .addColumn("company_id", text, (c) => c.notNull())
      .addColumn("entity_id", text, (c) => c.notNull().references("entities.id"))
      .addColumn("feature_identifier", text, (c) => c.notNull())
      .addColumn("status", text, (c) => c.notNull())
      .addColumn("machine_version", "integer", (c) => c.notNull())
      .addColumn("created_at", text, (c) => c.notNull())
      .addColumn("updated_at", text, (c) => c.notNull())
      // One application per entity and feature, decided by the database even when enables race.
      .addUniqueConstraint("features_entity_identifier_key", ["entity_id", "feature_identifier"])
      .execute()
  },
})
