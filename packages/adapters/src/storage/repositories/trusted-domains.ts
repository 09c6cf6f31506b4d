import type { TrustedDomainConfigRepository } from "@payments-engine/core"
import type { Kysely } from "kysely"
import type { StorageTables } from "../storage-tables.ts"

type Db = Kysely<StorageTables>

/**
 * Trusted-domain configurations over one Kysely handle. The write is one upsert on the unique
 * `workspace_id`, so two at once leave one row, whichever commits last holding its domains.
 *
 * @example
 * const config = await kyselyTrustedDomainConfigRepository(trx).find(workspaceId)
 */
export const kyselyTrustedDomainConfigRepository = (db: Db): TrustedDomainConfigRepository => ({
  find: async (workspaceId) =>
    db.selectFrom("trusted_domain_configs").selectAll().where("workspace_id", "=", workspaceId).executeTakeFirst(),
  upsert: async (row) =>
    db
      .insertInto("trusted_domain_configs")
      .values(row)
      .onConflict((oc) =>
        oc.column("workspace_id").doUpdateSet((eb) => ({
          domains: eb.ref("excluded.domains"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow(),
})
