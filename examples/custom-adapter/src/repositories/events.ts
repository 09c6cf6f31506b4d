import type { EventRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { freeze } from "./rows.ts"

/** The event outbox over one transaction's tables: an event commits with the change it reports. */
export const memoryEventRepository = (t: Pick<Tables, "events">): EventRepository => ({
  append: async (row) => void t.events.set(row.id, freeze(row)),
})
