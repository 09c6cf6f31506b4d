import type { EventRecord, EventRepository } from "@payments-engine/core"
import type { Kysely } from "kysely"
import { preparedQuery } from "../prepared-query.ts"
import type { StorageDialect } from "../storage-dialect.ts"
import type { StorageTables } from "../storage-tables.ts"
import { pageOf } from "./paging.ts"
import { activeEndpoints, listActiveEndpoints, toWebhookEndpoint } from "./webhook-endpoints.ts"

type Db = Kysely<StorageTables>

// Every event the engine writes runs these: compiled once (see preparedQuery).
const appendEvent = preparedQuery((db: Db, row: EventRecord) => db.insertInto("events").values(row))

/** A Postgres data-modifying CTE runs its insert whether or not the select reads it. */
const appendListingEndpoints = preparedQuery((db: Db, row: EventRecord) =>
  activeEndpoints(
    db.with("appended", (cte) => cte.insertInto("events").values(row)),
    row.company_id,
  ),
)

/**
 * The event outbox over one Kysely handle: an event is appended in the transaction of the change
 * it reports. Where the dialect writes in a CTE (`supportsWritingCte`), an event and the read of
 * its endpoints are one statement.
 *
 * @example
 * declare const event: EventRecord
 * await kyselyEventRepository(trx, postgresDialect).append(event)
 */
export const kyselyEventRepository = (db: Db, dialect: StorageDialect): EventRepository => ({
  append: async (row) => {
    await appendEvent(db, row)
  },
  find: async (workspaceId, id) =>
    db.selectFrom("events").selectAll().where("workspace_id", "=", workspaceId).where("id", "=", id).executeTakeFirst(),
  list: (workspaceId, filter, window) => {
    let rows = db.selectFrom("events").where("workspace_id", "=", workspaceId)
    if (filter.event !== undefined) rows = rows.where("event", "=", filter.event)
    if (filter.resourceId !== undefined) rows = rows.where("resource_id", "=", filter.resourceId)
    if (filter.createdFrom !== undefined) rows = rows.where("created_at", ">=", filter.createdFrom)
    if (filter.createdBefore !== undefined) rows = rows.where("created_at", "<", filter.createdBefore)
    return pageOf(rows, window, (row) => row, "newest")
  },
  appendListingEndpoints: async (row) => {
    if (dialect.supportsWritingCte) return (await appendListingEndpoints(db, row)).map(toWebhookEndpoint)
    await appendEvent(db, row)
    return (await listActiveEndpoints(db, { companyId: row.company_id })).map(toWebhookEndpoint)
  },
})
