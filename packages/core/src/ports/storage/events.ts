import type { StoredEvent } from "../../model/events.ts"

/** A stored outbox event: the model's `StoredEvent` Schema. */
export type EventRecord = typeof StoredEvent.Type

export interface EventRepository {
  /** Written in the same transaction as the change it reports (transactional outbox). */
  append(row: EventRecord): Promise<void>
}
