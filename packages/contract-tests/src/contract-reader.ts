import type { CompanyId, EventRecord, PaymentRecord, QuoteId, WorkspaceRecord } from "@payments-engine/core"

/**
 * What the suite can ask for a stored row's timestamps by: the resources the engine stamps with
 * its clock. Features are found by `application_id`, every other resource by `id`. `onboarding`
 * is an entity's onboarding record, `person` one of its persons, `attachment` one of its
 * supporting documents (created_at only), `job` a row of the job table (`created_at` as queued,
 * `updated_at` as the embedded runner last wrote it); the suite asks for `job` only when it was
 * given the storage's `jobTable`, so a storage whose jobs run elsewhere answers undefined.
 */
export type StampedResource =
  | "workspace"
  | "company"
  | "entity"
  | "recipient"
  | "bank_account"
  | "payment_profile"
  | "quote"
  | "payment"
  | "feature"
  | "event"
  | "onboarding"
  | "person"
  | "attachment"
  | "job"

/** The timestamp columns of a stored row, as text; null where the resource has no such column. */
export interface StoredStamps {
  readonly created_at: string
  readonly updated_at: string | null
  readonly deleted_at: string | null
}

/**
 * Reads that verify what the storage under test wrote, supplied by the adapter author (as in
 * Auth.js's adapter suite): they go to the database directly, never through the repositories
 * under test, so a bug in a repository cannot hide itself. Every read sees what is committed.
 *
 * Exact matches only: a name or id is compared byte for byte (no `LIKE`, no case folding).
 *
 * @example
 * declare const factory: () => Promise<KyselyStorage>, otherReads: Omit<ContractReader, "workspaceByName">
 * // Kysely: read the tables straight from the handle the storage runs on.
 * const reader = (storage: KyselyStorage): ContractReader => ({
 *   workspaceByName: (name) => storage.db.selectFrom("workspaces").selectAll().where("name", "=", name).executeTakeFirst(),
 *   ...otherReads,
 * })
 * runContractSuite({ name: "kysely/sqlite", factory, reader })
 */
export interface ContractReader {
  /** The workspace whose name is exactly `name`. */
  workspaceByName(name: string): Promise<WorkspaceRecord | undefined>
  /** The payment that used the quote, whatever its company or status. */
  paymentOfQuote(quoteId: QuoteId): Promise<PaymentRecord | undefined>
  /** Every event of the company in the outbox, in id order. */
  eventsOfCompany(companyId: CompanyId): Promise<ReadonlyArray<EventRecord>>
  /**
   * The timestamps stored on the row of that resource, exactly as written: the suite compares
   * them with its test clock (set far from the wall clock), so a row stamped by the database's
   * own clock shows. Soft-deleted rows are returned too; undefined when there is no such row.
   */
  stampsOf(resource: StampedResource, id: string): Promise<StoredStamps | undefined>
}
