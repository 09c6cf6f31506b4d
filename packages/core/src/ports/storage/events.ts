import type { EventRecord } from "../../model/events.ts"

export type { EventRecord } from "../../model/events.ts"

export interface EventRepository {
  /** Written in the same transaction as the change it reports (transactional outbox). */
  append(row: EventRecord): Promise<void>
}
