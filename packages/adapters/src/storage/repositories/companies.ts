import type {
  CompanyId,
  CompanyRecord,
  CompanyRepository,
  CompanyRole,
  QuoteId,
  WorkspaceId,
} from "@payments-engine/core"
import type { Kysely, Selectable } from "kysely"
import { andThen } from "../awaitable.ts"
import { listOf, listValues, preparedQuery } from "../prepared-query.ts"
import type { CompaniesTable, StorageTables } from "../storage-tables.ts"
import { companyColumns } from "../table-columns.ts"
import { anyTables } from "./kysely-any.ts"
import { pageOf } from "./paging.ts"
import { joinedQuoteColumns, joinProfilesInUse, splitJoinedRows } from "./profiles-in-use.ts"
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

/** A new quote's read: the company with the profiles it names (`pid0`, `pid1`, ...), in one go. */
const findWithProfiles = preparedQuery(
  (db: Db, p: Record<string, string>) =>
    joinProfilesInUse(
      anyTables(db)
        .selectFrom("companies as c")
        .select(companyColumns.map((column) => `c.${column}`))
        .where("c.workspace_id", "=", p.workspaceId)
        .where("c.id", "=", p.id),
      (join) => join.onRef("pr.company_id", "=", "c.id").on("pr.id", "in", listOf("pid", p)),
    ),
  { arrays: true },
)

/** A new payment's read: the company with its quote and the quote's two profiles, in one go. */
const findWithQuote = preparedQuery(
  (db: Db, p: { readonly workspaceId: WorkspaceId; readonly id: CompanyId; readonly quoteId: QuoteId }) =>
    joinProfilesInUse(
      anyTables(db)
        .selectFrom("companies as c")
        .leftJoin("quotes as q", (join) => join.onRef("q.company_id", "=", "c.id").on("q.id", "=", p.quoteId))
        .select([...companyColumns.map((column) => `c.${column}`), ...joinedQuoteColumns])
        .where("c.workspace_id", "=", p.workspaceId)
        .where("c.id", "=", p.id),
      (join) =>
        join
          .onRef("pr.company_id", "=", "c.id")
          .on((eb) =>
            eb.or([eb("pr.id", "=", eb.ref("q.from_profile_id")), eb("pr.id", "=", eb.ref("q.to_profile_id"))]),
          ),
    ),
  { arrays: true },
)

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
  findWithProfilesInUse: (workspaceId, id, profileIds) => {
    if (profileIds.length === 0) {
      return andThen(findCompany(db, workspaceId, id), (company) =>
        company === undefined ? undefined : { company, profiles: [] },
      )
    }
    const values = { workspaceId, id, ...listValues("pid", profileIds) }
    return andThen(findWithProfiles(db, values), (rows) => {
      const { own, profiles } = splitJoinedRows(rows, companyColumns, false)
      return own === undefined ? undefined : { company: toCompany(own as Selectable<CompaniesTable>), profiles }
    })
  },
  findWithQuoteInUse: (workspaceId, id, quoteId) =>
    andThen(findWithQuote(db, { workspaceId, id, quoteId }), (rows) => {
      const { own, quote, profiles } = splitJoinedRows(rows, companyColumns, true)
      return own === undefined ? undefined : { company: toCompany(own as Selectable<CompaniesTable>), quote, profiles }
    }),
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
