import type { Awaitable } from "../awaitable.ts"
import type { EndpointChanges } from "../endpoint-changes.ts"
import type { JobHandlers, JobRunner, JobRunnerOptions } from "../job-runner.ts"
import type { BankAccountRepository, FundingMandateRepository, PaymentProfileRepository } from "./bank-accounts.ts"
import type { CompanyRepository } from "./companies.ts"
import type { EntityRepository } from "./entities.ts"
import type { EventRepository } from "./events.ts"
import type { FeatureRepository } from "./features.ts"
import type { IdempotencyRepository } from "./idempotency.ts"
import type { JobRepository } from "./jobs.ts"
import type { AttachmentRepository } from "./onboarding-attachments.ts"
import type { OnboardingRepository, PersonRepository } from "./onboardings.ts"
import type { PaymentBatchRepository } from "./payment-batches.ts"
import type { PaymentRepository } from "./payments.ts"
import type { QuoteRepository } from "./quotes.ts"
import type { RecipientRepository } from "./recipients.ts"
import type { TestClockRepository } from "./test-clocks.ts"
import type { TrustedDomainConfigRepository } from "./trusted-domains.ts"
import type { UsedHostedPageTokenRepository } from "./used-hosted-page-tokens.ts"
import type { WebhookDeliveryRepository } from "./webhook-deliveries.ts"
import type { WebhookEndpointRepository } from "./webhook-endpoints.ts"
import type { WebhookRecoveryRepository } from "./webhook-recoveries.ts"
import type { WorkspaceBrandingRepository } from "./workspace-brandings.ts"
import type { ApiKeyRepository, SettingRepository, WorkspaceRepository } from "./workspaces.ts"

export type * from "./bank-accounts.ts"
export type * from "./companies.ts"
export type * from "./entities.ts"
export type * from "./events.ts"
export type * from "./features.ts"
export type * from "./idempotency.ts"
export type * from "./job-table.ts"
export type * from "./jobs.ts"
export type * from "./list-window.ts"
export type * from "./onboarding-attachments.ts"
export type * from "./onboardings.ts"
export type * from "./payment-batches.ts"
export type * from "./payments.ts"
export type * from "./quotes.ts"
export type * from "./recipients.ts"
export type * from "./test-clocks.ts"
export type * from "./trusted-domains.ts"
export type * from "./used-hosted-page-tokens.ts"
export type * from "./webhook-deliveries.ts"
export type * from "./webhook-endpoints.ts"
export type * from "./webhook-recoveries.ts"
export type * from "./workspace-brandings.ts"
export type * from "./workspaces.ts"
/**
 * The storage port: everything the engine keeps. Timestamps are ISO 8601 strings in UTC with
 * milliseconds (`Date.prototype.toISOString()`), so they sort as text on every database.
 *
 * An adapter passes `runContractSuite` from `@payments-engine/contract-tests`.
 *
 * @example
 * const storage = await openSqliteStorage({ filename: ":memory:" }) // from @payments-engine/adapters
 * const engine = createEngine({
 *   storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher(), serverSecret: { read: async () => secret },
 *   paymentProvider: createSandboxPaymentProvider(), bankLinker: createSandboxBankLinker(),
 * }) // all from @payments-engine/adapters too
 */
export interface Storage {
  /** What this adapter can do; the contract suite reads it to decide what to run. */
  readonly capabilities: StorageCapabilities
  /**
   * Runs `work` in one transaction: commits when its promise resolves, rolls back when it rejects
   * (and rejects with the same reason). Work may be retried by the caller, never by the adapter.
   * The engine's work answers at once (a value, or a throw) when every repository call of it did:
   * a storage whose statements answer at once (SQLite) may then end the transaction at once too.
   */
  transaction<T>(work: (tx: Repositories) => Awaitable<T>): Promise<T>
  /**
   * Runs `work` that only reads: no write lock is taken and nothing is begun that a read does not
   * need (SQLite: a deferred `BEGIN`; Postgres: the statements on one connection without `BEGIN`
   * and `COMMIT`, so a one-statement read is one round trip). Each statement sees committed data;
   * several statements need not see one snapshot. `work` must not write: a storage may refuse it.
   * Optional: the engine runs reads in `transaction` on a storage without it.
   */
  read?<T>(work: (tx: Repositories) => Awaitable<T>): Promise<T>
  /**
   * A runner for the jobs queued through `tx.jobs.enqueue`, calling `handlers`. Called once per
   * engine; several runners of one storage (several engines) share its jobs, each run once.
   */
  createJobRunner(handlers: JobHandlers, options: JobRunnerOptions): JobRunner
  /**
   * Which engine processes sharing the storage still run, so that an `Idempotency-Key` claimed by
   * a process that died is taken over by the next retry at once. Optional: without it, a claim is
   * presumed abandoned 60 s after it was made.
   */
  readonly processes?: ProcessLiveness
  /**
   * Tells the lanes of every engine process sharing the storage that an endpoint was deactivated
   * or deleted (Postgres: LISTEN/NOTIFY). Optional: a storage one process owns needs none (the
   * engine tells its own lanes); a shared storage without it makes every send of a lane read
   * whether its endpoint is still active.
   */
  readonly endpointChanges?: EndpointChanges
  /** Releases connections. The storage is unusable afterwards. */
  close(): Promise<void>
}

/**
 * Liveness of the processes that share a storage. A one-process storage answers from memory: an
 * id made when it opened, and no other id runs (a claim made before this process started is dead).
 * A shared database asks the database (Postgres: the `pg_stat_activity` row of a session each
 * process holds open, gone the moment the process dies).
 */
export interface ProcessLiveness {
  /** This process's id; a new one after the process lost the means by which others see it run. */
  self(): Promise<string>
  /** Whether the process with this id (from any `self()`) still runs; false for an id it cannot read. */
  isRunning(id: string): Promise<boolean>
}

export interface StorageCapabilities {
  /** Several engine processes may share this storage (true for Postgres, false for SQLite and PGlite). */
  readonly multiProcess: boolean
  /**
   * Transactions may run at the same time, each seeing the others' commits (true for Postgres
   * and SQLite in WAL mode; false for a storage that runs one transaction after another).
   */
  readonly concurrentTransactions: boolean
}

/** The repositories, bound to one transaction. */
export interface Repositories {
  readonly workspaces: WorkspaceRepository
  readonly apiKeys: ApiKeyRepository
  readonly settings: SettingRepository
  readonly companies: CompanyRepository
  readonly entities: EntityRepository
  readonly recipients: RecipientRepository
  readonly bankAccounts: BankAccountRepository
  readonly paymentProfiles: PaymentProfileRepository
  /** The debit mandates of funding accounts linked on the hosted page. */
  readonly fundingMandates: FundingMandateRepository
  readonly quotes: QuoteRepository
  readonly payments: PaymentRepository
  readonly paymentBatches: PaymentBatchRepository
  readonly webhookEndpoints: WebhookEndpointRepository
  readonly webhookDeliveries: WebhookDeliveryRepository
  /** Recoveries of endpoints' failed deliveries (`POST .../webhook_endpoints/{id}/recover`). */
  readonly webhookRecoveries: WebhookRecoveryRepository
  readonly features: FeatureRepository
  readonly onboardings: OnboardingRepository
  readonly onboardingPersons: PersonRepository
  readonly onboardingAttachments: AttachmentRepository
  readonly events: EventRepository
  readonly idempotency: IdempotencyRepository
  readonly jobs: JobRepository
  /** Sandbox mode only: each workspace's test clock. */
  readonly testClocks: TestClockRepository
  /** Each workspace's trusted return domains (hosted-page `return_url`). */
  readonly trustedDomainConfigs: TrustedDomainConfigRepository
  /** Each workspace's branding of its hosted pages. */
  readonly workspaceBrandings: WorkspaceBrandingRepository
  /** Hosted-page tokens whose task is done. */
  readonly usedHostedPageTokens: UsedHostedPageTokenRepository
}
