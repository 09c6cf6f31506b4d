import type { UsedHostedPageTokenRepository } from "@payments-engine/core"
import type { Kysely } from "kysely"
import type { StorageTables } from "../storage-tables.ts"

type Db = Kysely<StorageTables>

/**
 * Used-up hosted-page tokens over one Kysely handle. Marking is an insert that does nothing on a
 * taken `token_id`: on Postgres a racing transaction's insert waits for the first to commit, then
 * inserts nothing, so exactly one of them sees its row written.
 *
 * @example
 * declare const row: UsedHostedPageTokenRecord
 * const first = await kyselyUsedHostedPageTokenRepository(trx).markUsed(row)
 */
export const kyselyUsedHostedPageTokenRepository = (db: Db): UsedHostedPageTokenRepository => ({
  markUsed: async (row) => {
    const inserted = await db
      .insertInto("used_hosted_page_tokens")
      .values(row)
      .onConflict((oc) => oc.column("token_id").doNothing())
      .executeTakeFirst()
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1
  },
  isUsed: async (tokenId) =>
    (await db
      .selectFrom("used_hosted_page_tokens")
      .select("token_id")
      .where("token_id", "=", tokenId)
      .executeTakeFirst()) !== undefined,
  purgeExpired: async (now) => {
    const deleted = await db.deleteFrom("used_hosted_page_tokens").where("expires_at", "<=", now).executeTakeFirst()
    return Number(deleted.numDeletedRows)
  },
})
