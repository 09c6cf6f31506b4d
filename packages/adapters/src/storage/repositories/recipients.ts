import type { RecipientRecord, RecipientRepository } from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { RecipientsTable, StorageTables } from "../storage-tables.ts"
import { recipientColumns } from "../table-columns.ts"
import { pageOf } from "./paging.ts"
import { scopedFind } from "./scoped-find.ts"

type Db = Kysely<StorageTables>

const toRecipient = (row: Selectable<RecipientsTable>): RecipientRecord => ({
  id: row.id,
  company_id: row.company_id,
  name: row.name,
  email: row.email,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
})

const findActiveRecipient = scopedFind("recipients", "company_id", recipientColumns, toRecipient, { liveOnly: true })

/**
 * Recipients over one Kysely handle, each scoped by its company.
 *
 * @example
 * const recipient = await kyselyRecipientRepository(trx).findActive(cid, rid)
 */
export const kyselyRecipientRepository = (db: Db): RecipientRepository => ({
  insert: async (row) => {
    await db
      .insertInto("recipients")
      .values({ ...row })
      .execute()
  },
  findActive: (companyId, id) => findActiveRecipient(db, companyId, id),
  update: async (row) => {
    await db
      .updateTable("recipients")
      .set({
        name: row.name,
        email: row.email,
        created_at: row.created_at,
        updated_at: row.updated_at,
        deleted_at: row.deleted_at,
      })
      .where("company_id", "=", row.company_id)
      .where("id", "=", row.id)
      .execute()
  },
  listActive: (companyId, window) =>
    pageOf(
      db.selectFrom("recipients").where("company_id", "=", companyId).where("deleted_at", "is", null),
      window,
      toRecipient,
    ),
})
