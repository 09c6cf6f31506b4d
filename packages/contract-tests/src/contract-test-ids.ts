/**
 * Every test of the contract suite, by id. Ids are stable: pass them to `skip`, and find them at
 * the start of each test title (`companies.soft-delete: ...`).
 */
export const contractTestIds = [
  "storage.capabilities",
  "storage.commit",
  "storage.rollback",
  "companies.create-and-get",
  "companies.update",
  "companies.soft-delete",
  "companies.paging",
  "companies.tenancy",
  "companies.permissions",
  "companies.active-integration",
  "entities.create-and-get",
  "entities.update",
  "entities.one-per-company",
  "entities.delete-and-recreate",
  "entities.active-integration",
  "entities.deleted-company",
  "recipients.create-and-get",
  "recipients.delete",
  "recipients.list-and-scope",
  "idempotency.replay",
  "idempotency.mismatch",
  "idempotency.in-flight",
  "idempotency.expiry",
  "idempotency.abandoned-lock",
  "idempotency.abandon-and-scope",
  "access.api-keys",
  "access.workspaces-and-settings",
  "concurrency.one-entity-per-company",
  "concurrency.idempotency-claim",
  "concurrency.insert-or-get",
  "concurrency.two-engines",
  "bank-accounts.create-and-read",
  "bank-accounts.validation",
  "funding-accounts.link",
  "quotes.net-and-gross",
  "quotes.profile-rules",
  "quotes.cross-currency-needs-integration",
  "payments.create-and-execute",
  "payments.quote-single-use",
  "payments.quote-expiry",
  "payments.idempotency",
  "payments.cancel",
  "payments.compare-and-set",
  "payments.list-filters",
  "jobs.claim-once",
  "jobs.retry-and-fail",
  "events.outbox",
  "concurrency.payment-idempotency",
  "concurrency.cancel-vs-execute",
  "concurrency.job-claims",
  "concurrency.slow-provider",
  "model.companies-entities-recipients",
  "model.quotes-and-payments",
] as const

/** The id of one test of the contract suite, for `skip`. Prefer declaring `storage.capabilities`. */
export type ContractTestId = (typeof contractTestIds)[number]

/** True for an id the suite knows; the suite refuses unknown ids in `skip`, to catch typos. */
export const isContractTestId = (value: string): value is ContractTestId =>
  (contractTestIds as ReadonlyArray<string>).includes(value)
