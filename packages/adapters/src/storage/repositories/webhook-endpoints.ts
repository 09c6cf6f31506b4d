import type { CompanyId, WebhookEndpointRecord, WebhookEndpointRepository } from "@payments-engine/core"
import type { Kysely, QueryCreator, Selectable } from "kysely"
import { preparedQuery } from "../prepared-query.ts"
import type { StorageTables, WebhookEndpointsTable } from "../storage-tables.ts"
import { webhookEndpointColumns } from "../table-columns.ts"
import { pageOf } from "./paging.ts"

type Db = Kysely<StorageTables>

export const toWebhookEndpoint = (row: Selectable<WebhookEndpointsTable>): WebhookEndpointRecord => ({
  ...row,
  active: Number(row.active) === 1,
})

/**
 * The endpoints an event of the company may go to (`listActive`); `events` reads them beside an
 * append. Prepared, so its columns are named: a `*` would change under a running process when a
 * migration adds one.
 */
export const activeEndpoints = (db: QueryCreator<StorageTables>, companyId: CompanyId) =>
  db
    .selectFrom("webhook_endpoints")
    .select(webhookEndpointColumns)
    .where("company_id", "=", companyId)
    .where("deleted_at", "is", null)
    .where("active", "=", 1)
    .orderBy("id")

/** Compiled once (see preparedQuery): every event of a company lists them. */
export const listActiveEndpoints = preparedQuery((db: Db, p: { readonly companyId: CompanyId }) =>
  activeEndpoints(db, p.companyId),
)

const endpointRow = (row: WebhookEndpointRecord): WebhookEndpointsTable => ({ ...row, active: row.active ? 1 : 0 })

/**
 * Webhook endpoints over one Kysely handle. Every read and write names the workspace (by id) or
 * the company (lists) and only live rows; a toggle is one `UPDATE` that flips the flag in SQL, so
 * two toggles in overlapping transactions on Postgres leave it as it was.
 *
 * @example
 * declare const endpointId: WebhookEndpointId
 * const endpoint = await kyselyWebhookEndpointRepository(trx).find(workspaceId, endpointId)
 */
export const kyselyWebhookEndpointRepository = (db: Db): WebhookEndpointRepository => {
  const live = (workspaceId: WebhookEndpointRecord["workspace_id"], id: WebhookEndpointRecord["id"]) =>
    db
      .updateTable("webhook_endpoints")
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .where("deleted_at", "is", null)
  return {
    insert: async (row) => {
      await db.insertInto("webhook_endpoints").values(endpointRow(row)).execute()
    },
    find: async (workspaceId, id) => {
      const row = await db
        .selectFrom("webhook_endpoints")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", id)
        .where("deleted_at", "is", null)
        .executeTakeFirst()
      return row === undefined ? undefined : toWebhookEndpoint(row)
    },
    listActive: async (companyId) => (await listActiveEndpoints(db, { companyId })).map(toWebhookEndpoint),
    list: (companyId, filter, window) => {
      let rows = db.selectFrom("webhook_endpoints").where("company_id", "=", companyId).where("deleted_at", "is", null)
      if (filter.active !== undefined) rows = rows.where("active", "=", filter.active ? 1 : 0)
      return pageOf(rows, window, toWebhookEndpoint)
    },
    update: async (workspaceId, id, change) => {
      const { active, ...fields } = change
      const row = await live(workspaceId, id)
        .set({ ...fields, ...(active === undefined ? {} : { active: active ? 1 : 0 }) })
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toWebhookEndpoint(row)
    },
    toggle: async (workspaceId, id, updatedAt) => {
      const row = await live(workspaceId, id)
        .set((eb) => ({ active: eb(eb.val(1), "-", eb.ref("active")), updated_at: updatedAt }))
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toWebhookEndpoint(row)
    },
    replaceSecret: async (workspaceId, id, from, change) => {
      const row = await live(workspaceId, id).where("secret", "=", from).set(change).returningAll().executeTakeFirst()
      return row === undefined ? undefined : toWebhookEndpoint(row)
    },
    recordCircuit: async (workspaceId, id, circuit) => {
      const row = await live(workspaceId, id).set(circuit).returningAll().executeTakeFirst()
      return row === undefined ? undefined : toWebhookEndpoint(row)
    },
    disable: async (workspaceId, id, change) => {
      const row = await live(workspaceId, id)
        .where("active", "=", 1)
        .set({ ...change, active: 0 })
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toWebhookEndpoint(row)
    },
    delete: async (workspaceId, id, deletedAt) => {
      const outcome = await live(workspaceId, id)
        .set({ deleted_at: deletedAt, updated_at: deletedAt })
        .executeTakeFirst()
      return Number(outcome.numUpdatedRows) === 1
    },
  }
}
