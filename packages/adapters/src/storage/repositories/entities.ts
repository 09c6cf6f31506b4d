import type { EntityRecord, EntityRepository } from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { EntitiesTable, StorageTables } from "../storage-tables.ts"
import { entityColumns } from "../table-columns.ts"
import { pageOf } from "./paging.ts"
import { scopedFind } from "./scoped-find.ts"

type Db = Kysely<StorageTables>

const toEntity = (row: Selectable<EntitiesTable>): EntityRecord => ({
  id: row.id,
  company_id: row.company_id,
  name: row.name,
  country_alpha2: row.country_alpha2,
  payment_integration_active: Number(row.payment_integration_active) === 1,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
})

const entityRow = (row: EntityRecord): EntitiesTable => ({
  id: row.id,
  company_id: row.company_id,
  name: row.name,
  country_alpha2: row.country_alpha2,
  payment_integration_active: row.payment_integration_active ? 1 : 0,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
})

const findActiveEntity = scopedFind("entities", "company_id", entityColumns, toEntity, { liveOnly: true })

/**
 * Entities over one Kysely handle; a partial unique index keeps one live entity per company.
 *
 * @example
 * const entity = await kyselyEntityRepository(trx).findActiveOfCompany(cid)
 */
export const kyselyEntityRepository = (db: Db): EntityRepository => ({
  insertIfNoneActive: async (row) => {
    // The partial unique index decides, atomically, even between concurrent transactions.
    const inserted = await db
      .insertInto("entities")
      .values(entityRow(row))
      .onConflict((oc) => oc.column("company_id").where("deleted_at", "is", null).doNothing())
      .returning("id")
      .executeTakeFirst()
    return inserted !== undefined
  },
  findActive: (companyId, id) => findActiveEntity(db, companyId, id),
  findActiveById: async (id) => {
    const row = await db
      .selectFrom("entities")
      .selectAll()
      .where("id", "=", id)
      .where("deleted_at", "is", null)
      .executeTakeFirst()
    return row === undefined ? undefined : toEntity(row)
  },
  findActiveOfCompany: async (companyId) => {
    const row = await db
      .selectFrom("entities")
      .selectAll()
      .where("company_id", "=", companyId)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .executeTakeFirst()
    return row === undefined ? undefined : toEntity(row)
  },
  update: async (row) => {
    // The integration flag has one writer, `markIntegrationActive`: a stale row cannot clear it.
    const { id, company_id, payment_integration_active: _flag, ...fields } = entityRow(row)
    await db.updateTable("entities").set(fields).where("company_id", "=", company_id).where("id", "=", id).execute()
  },
  markIntegrationActive: async (companyId, id) => {
    const marked = await db
      .updateTable("entities")
      .set({ payment_integration_active: 1 })
      .where("company_id", "=", companyId)
      .where("id", "=", id)
      .where("deleted_at", "is", null)
      .returning("id")
      .executeTakeFirst()
    return marked !== undefined
  },
  listActive: (companyId, window) =>
    pageOf(
      db.selectFrom("entities").where("company_id", "=", companyId).where("deleted_at", "is", null),
      window,
      toEntity,
    ),
})
