import type { EventRepository } from "@payments-engine/core"
import type { Kysely } from "kysely"
import type { StorageTables } from "../storage-tables.ts"

type Db = Kysely<StorageTables>

/**
 * The event outbox over one Kysely handle: an event is appended in the transaction of the change
 * it reports.
 *
 * @example
 * declare const event: EventRecord
 * await kyselyEventRepository(trx).append(event)
 */
export const kyselyEventRepository = (db: Db): EventRepository => ({
  append: async (row) => {
    await db.insertInto("events").values(row).execute()
  },
})
