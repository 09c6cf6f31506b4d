import type { Slice, Window } from "./index.ts"

export interface EventRecord {
  readonly id: string
  readonly workspace_id: string
  readonly company_id: string
  /** The event name, e.g. "PaymentEvents::CompletedEvent". */
  readonly event: string
  readonly resource_id: string
  /** The webhook body, JSON text. */
  readonly payload: string
  readonly created_at: string
}

export interface EventRepository {
  /** Written in the same transaction as the change it reports (transactional outbox). */
  append(row: EventRecord): Promise<void>
  /**
   * Events of a company in id order.
   *
   * @deprecated The engine never reads the outbox this way; only the job scenarios of the
   * contract suite still do. It leaves the port once they read `ContractReader.eventsOfCompany`.
   */
  listByCompany(companyId: string, window: Window): Promise<Slice<EventRecord>>
}
