import type { EventRecord, EventRepository, Slice, Window } from "@payments-engine/core"
import type { Kysely } from "kysely"
import type { StorageTables } from "../storage-tables.ts"
import { pageOf } from "./paging.ts"

type Db = Kysely<StorageTables>

/**
 * The event outbox of this storage: the port's, plus `listByCompany`, which the port no longer
 * asks for (only tests used it) and which stays for whoever reads the outbox of a company.
 */
export interface KyselyEventRepository extends EventRepository {
  /** Events of the company, in id order. */
  listByCompany(companyId: string, window: Window): Promise<Slice<EventRecord>>
}

/**
 * The event outbox over one Kysely handle: an event is appended in the transaction of the change
 * it reports.
 *
 * @example
 * await kyselyEventRepository(trx).append(event)
 */
export const kyselyEventRepository = (db: Db): KyselyEventRepository => ({
  append: async (row) => {
    await db.insertInto("events").values(row).execute()
  },
  listByCompany: (companyId, window) =>
    pageOf(db.selectFrom("events").where("company_id", "=", companyId), window, (row): EventRecord => row),
})
