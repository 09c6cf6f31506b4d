import type { Repositories } from "@payments-engine/core"
import type { Kysely } from "kysely"
import { kyselyJobRepository } from "../jobs/kysely-job-table.ts"
import { lazyRepositories, type RepositoryFactories } from "./lazy-repositories.ts"
import {
  kyselyBankAccountRepository,
  kyselyFundingMandateRepository,
  kyselyPaymentProfileRepository,
} from "./repositories/bank-accounts.ts"
import { kyselyCompanyRepository } from "./repositories/companies.ts"
import { kyselyEntityRepository } from "./repositories/entities.ts"
import { kyselyEventRepository } from "./repositories/events.ts"
import { kyselyFeatureRepository } from "./repositories/features.ts"
import { kyselyIdempotencyRepository } from "./repositories/idempotency.ts"
import { kyselyAttachmentRepository } from "./repositories/onboarding-attachments.ts"
import { kyselyOnboardingRepository, kyselyPersonRepository } from "./repositories/onboardings.ts"
import { kyselyPaymentBatchRepository } from "./repositories/payment-batches.ts"
import { kyselyPaymentRepository } from "./repositories/payments.ts"
import { kyselyQuoteRepository } from "./repositories/quotes.ts"
import { kyselyRecipientRepository } from "./repositories/recipients.ts"
import { kyselyTestClockRepository } from "./repositories/test-clocks.ts"
import { kyselyTrustedDomainConfigRepository } from "./repositories/trusted-domains.ts"
import { kyselyUsedHostedPageTokenRepository } from "./repositories/used-hosted-page-tokens.ts"
import { kyselyWebhookDeliveryRepository } from "./repositories/webhook-deliveries.ts"
import { kyselyWebhookEndpointRepository } from "./repositories/webhook-endpoints.ts"
import { kyselyWebhookRecoveryRepository } from "./repositories/webhook-recoveries.ts"
import { kyselyWorkspaceBrandingRepository } from "./repositories/workspace-brandings.ts"
import {
  kyselyApiKeyRepository,
  kyselySettingRepository,
  kyselyWorkspaceRepository,
} from "./repositories/workspaces.ts"
import type { StorageDialect } from "./storage-dialect.ts"
import type { StorageTables } from "./storage-tables.ts"

/**
 * How to build each of the storage port's repositories on `dialect` over one Kysely handle,
 * usually a transaction, each built when the transaction first uses it; one file per aggregate
 * under `repositories/`, as the port has one under core's `ports/storage/`. Every method is
 * scoped by the ids it receives, and every conditional write reads its outcome from `RETURNING`
 * (`supportsReturning`).
 *
 * @example
 * const company = await db.transaction().execute(async (trx) => kyselyRepositories(trx, sqliteDialect).companies.find(workspaceId, cid))
 */
export const kyselyRepositoryFactories = (dialect: StorageDialect): RepositoryFactories<Repositories> => ({
  workspaces: kyselyWorkspaceRepository,
  apiKeys: kyselyApiKeyRepository,
  settings: kyselySettingRepository,
  companies: kyselyCompanyRepository,
  entities: kyselyEntityRepository,
  recipients: kyselyRecipientRepository,
  bankAccounts: kyselyBankAccountRepository,
  paymentProfiles: kyselyPaymentProfileRepository,
  fundingMandates: kyselyFundingMandateRepository,
  quotes: kyselyQuoteRepository,
  payments: kyselyPaymentRepository,
  paymentBatches: kyselyPaymentBatchRepository,
  webhookEndpoints: kyselyWebhookEndpointRepository,
  webhookDeliveries: (db) => kyselyWebhookDeliveryRepository(db, dialect),
  webhookRecoveries: kyselyWebhookRecoveryRepository,
  features: kyselyFeatureRepository,
  onboardings: kyselyOnboardingRepository,
  onboardingPersons: kyselyPersonRepository,
  onboardingAttachments: kyselyAttachmentRepository,
  events: (db) => kyselyEventRepository(db, dialect),
  idempotency: kyselyIdempotencyRepository,
  // The embedded runner's table; a storage on graphile-worker brings its own.
  jobs: kyselyJobRepository,
  testClocks: kyselyTestClockRepository,
  trustedDomainConfigs: kyselyTrustedDomainConfigRepository,
  usedHostedPageTokens: kyselyUsedHostedPageTokenRepository,
  workspaceBrandings: kyselyWorkspaceBrandingRepository,
})

/** One builder of repositories per dialect: each is a class made once (see lazyRepositories). */
const repositoriesByDialect = new WeakMap<StorageDialect, (db: Kysely<StorageTables>) => Repositories>()

/**
 * The storage port's repositories on `dialect` over one Kysely handle, usually a transaction,
 * each built when the transaction first uses it.
 *
 * @example
 * const company = await db
 *   .transaction()
 *   .execute(async (trx) => kyselyRepositories(trx, sqliteDialect).companies.find(workspaceId, cid))
 */
export const kyselyRepositories = (db: Kysely<StorageTables>, dialect: StorageDialect): Repositories => {
  let repositoriesOver = repositoriesByDialect.get(dialect)
  if (repositoriesOver === undefined) {
    repositoriesOver = lazyRepositories(kyselyRepositoryFactories(dialect))
    repositoriesByDialect.set(dialect, repositoriesOver)
  }
  return repositoriesOver(db)
}
