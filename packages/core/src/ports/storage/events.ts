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
}
