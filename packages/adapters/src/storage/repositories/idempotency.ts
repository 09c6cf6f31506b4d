import type { IdempotencyRecord, IdempotencyRepository, WorkspaceId } from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { IdempotencyRecordsTable, StorageTables } from "../storage-tables.ts"
import { insertOrRead } from "./insert-or-read.ts"

type Db = Kysely<StorageTables>

const toIdempotency = (row: Selectable<IdempotencyRecordsTable>): IdempotencyRecord => ({
  workspace_id: row.workspace_id,
  key: row.key,
  fingerprint: row.fingerprint,
  response_status: row.response_status === null ? null : Number(row.response_status),
  response_body: row.response_body,
  created_at: row.created_at,
  expires_at: row.expires_at,
  locked_until: row.locked_until,
  owner: row.owner,
  journal: row.journal,
})

const findIdempotency = async (
  db: Db,
  workspaceId: WorkspaceId,
  key: string,
): Promise<IdempotencyRecord | undefined> => {
  const row = await db
    .selectFrom("idempotency_records")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("key", "=", key)
    .executeTakeFirst()
  return row === undefined ? undefined : toIdempotency(row)
}

/**
 * Idempotency records over one Kysely handle; the primary key (workspace, key) decides `claim`,
 * even between concurrent transactions.
 *
 * @example
 * declare const record: IdempotencyRecord
 * const outcome = await kyselyIdempotencyRepository(trx).claim(record)
 */
export const kyselyIdempotencyRepository = (db: Db): IdempotencyRepository => ({
  claim: async (row) => {
    const outcome = await insertOrRead(
      () =>
        db
          .insertInto("idempotency_records")
          .values({ ...row })
          .onConflict((oc) => oc.columns(["workspace_id", "key"]).doNothing())
          .returning("key")
          .executeTakeFirst(),
      () => findIdempotency(db, row.workspace_id, row.key),
      `idempotency key ${row.key} neither claimed nor found`,
    )
    return "inserted" in outcome ? { claimed: true } : { claimed: false, existing: outcome.existing }
  },
  find: (workspaceId, key) => findIdempotency(db, workspaceId, key),
  replace: async (row) => {
    const { workspace_id, key, ...fields } = row
    await db
      .insertInto("idempotency_records")
      .values({ ...row })
      .onConflict((oc) => oc.columns(["workspace_id", "key"]).doUpdateSet({ ...fields }))
      .execute()
  },
  replaceIfOwner: async (row, owner) => {
    const { workspace_id, key, ...fields } = row
    // One statement, so Postgres re-checks the owner on the row as a concurrent update left it.
    const updated = await db
      .updateTable("idempotency_records")
      .set({ ...fields })
      .where("workspace_id", "=", workspace_id)
      .where("key", "=", key)
      .where((eb) => (owner === null ? eb("owner", "is", null) : eb("owner", "=", owner)))
      .executeTakeFirst()
    return updated.numUpdatedRows > 0n
  },
  delete: async (workspaceId, key) => {
    await db.deleteFrom("idempotency_records").where("workspace_id", "=", workspaceId).where("key", "=", key).execute()
  },
  purgeExpired: async (now) => {
    const purged = await db.deleteFrom("idempotency_records").where("expires_at", "<=", now).returning("key").execute()
    return purged.length
  },
})
