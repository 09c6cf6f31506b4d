import type { WorkspaceBrandingRepository } from "@payments-engine/core"
import type { Kysely } from "kysely"
import type { StorageTables } from "../storage-tables.ts"

type Db = Kysely<StorageTables>

/**
 * Workspace brandings over one Kysely handle. The write is one upsert on the `workspace_id` key,
 * so two at once leave one row.
 *
 * @example
 * const branding = await kyselyWorkspaceBrandingRepository(trx).find(workspaceId)
 */
export const kyselyWorkspaceBrandingRepository = (db: Db): WorkspaceBrandingRepository => ({
  find: async (workspaceId) =>
    db.selectFrom("workspace_brandings").selectAll().where("workspace_id", "=", workspaceId).executeTakeFirst(),
  upsert: async (row) =>
    db
      .insertInto("workspace_brandings")
      .values(row)
      .onConflict((oc) =>
        oc.column("workspace_id").doUpdateSet((eb) => ({
          display_name: eb.ref("excluded.display_name"),
          logo_url: eb.ref("excluded.logo_url"),
          accent_color: eb.ref("excluded.accent_color"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow(),
})
