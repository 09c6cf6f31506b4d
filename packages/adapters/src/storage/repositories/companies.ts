import type { CompanyRecord, CompanyRepository, CompanyRole } from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import type { CompaniesTable, StorageTables } from "../storage-tables.ts"
import { companyColumns } from "../table-columns.ts"
import { pageOf } from "./paging.ts"
import { scopedFind } from "./scoped-find.ts"

type Db = Kysely<StorageTables>

const toCompany = (row: Selectable<CompaniesTable>): CompanyRecord => ({
  id: row.id,
  workspace_id: row.workspace_id,
  name: row.name,
  country: row.country,
  default_currency: row.default_currency,
  role: row.role as CompanyRole,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deleted_at: row.deleted_at,
})

/** Every use case that names a company reads it first. */
const findCompany = scopedFind("companies", "workspace_id", companyColumns, toCompany)

/**
 * Companies over one Kysely handle, each scoped by its workspace.
 *
 * @example
 * const company = await kyselyCompanyRepository(trx).find(workspaceId, cid)
 */
export const kyselyCompanyRepository = (db: Db): CompanyRepository => ({
  insert: async (row) => {
    await db
      .insertInto("companies")
      .values({ ...row })
      .execute()
  },
  find: (workspaceId, id) => findCompany(db, workspaceId, id),
  update: async (row) => {
    await db
      .updateTable("companies")
      .set({
        name: row.name,
        country: row.country,
        default_currency: row.default_currency,
        role: row.role,
        created_at: row.created_at,
        updated_at: row.updated_at,
        deleted_at: row.deleted_at,
      })
      .where("workspace_id", "=", row.workspace_id)
      .where("id", "=", row.id)
      .execute()
  },
  listActive: (workspaceId, window) =>
    pageOf(
      db.selectFrom("companies").where("workspace_id", "=", workspaceId).where("deleted_at", "is", null),
      window,
      toCompany,
    ),
})
