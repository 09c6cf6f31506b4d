import type { Repositories } from "@payments-engine/core"
import { memoryJobRepository } from "./memory-job-table.ts"
import type { Tables } from "./memory-tables.ts"
import {
  memoryBankAccountRepository,
  memoryFundingMandateRepository,
  memoryPaymentProfileRepository,
} from "./repositories/bank-accounts.ts"
import { memoryCompanyRepository } from "./repositories/companies.ts"
import { memoryEntityRepository } from "./repositories/entities.ts"
import { memoryEventRepository } from "./repositories/events.ts"
import { memoryFeatureRepository } from "./repositories/features.ts"
import { memoryIdempotencyRepository } from "./repositories/idempotency.ts"
import { memoryAttachmentRepository } from "./repositories/onboarding-attachments.ts"
import { memoryOnboardingRepository, memoryPersonRepository } from "./repositories/onboardings.ts"
import { memoryPaymentBatchRepository } from "./repositories/payment-batches.ts"
import { memoryPaymentRepository } from "./repositories/payments.ts"
import { memoryQuoteRepository } from "./repositories/quotes.ts"
import { memoryRecipientRepository } from "./repositories/recipients.ts"
import { memoryTestClockRepository } from "./repositories/test-clocks.ts"
import { memoryTrustedDomainConfigRepository } from "./repositories/trusted-domains.ts"
import { memoryUsedHostedPageTokenRepository } from "./repositories/used-hosted-page-tokens.ts"
import { memoryWebhookDeliveryRepository } from "./repositories/webhook-deliveries.ts"
import { memoryWebhookEndpointRepository } from "./repositories/webhook-endpoints.ts"
import { memoryWebhookRecoveryRepository } from "./repositories/webhook-recoveries.ts"
import { memoryWorkspaceBrandingRepository } from "./repositories/workspace-brandings.ts"
import {
  memoryApiKeyRepository,
  memorySettingRepository,
  memoryWorkspaceRepository,
} from "./repositories/workspaces.ts"

/**
 * The storage port's repositories over one set of tables (a transaction's private copy); one
 * file per aggregate under `repositories/`, as the port has one under core's `ports/storage/`.
 *
 * @example
 * const company = await memoryRepositories(copyTables(tables)).companies.find(workspaceId, companyId)
 */
export const memoryRepositories = (t: Tables): Repositories => ({
  workspaces: memoryWorkspaceRepository(t),
  apiKeys: memoryApiKeyRepository(t),
  settings: memorySettingRepository(t),
  companies: memoryCompanyRepository(t),
  entities: memoryEntityRepository(t),
  recipients: memoryRecipientRepository(t),
  bankAccounts: memoryBankAccountRepository(t),
  paymentProfiles: memoryPaymentProfileRepository(t),
  fundingMandates: memoryFundingMandateRepository(t),
  quotes: memoryQuoteRepository(t),
  payments: memoryPaymentRepository(t),
  paymentBatches: memoryPaymentBatchRepository(t),
  webhookEndpoints: memoryWebhookEndpointRepository(t),
  webhookDeliveries: memoryWebhookDeliveryRepository(t),
  webhookRecoveries: memoryWebhookRecoveryRepository(t),
  features: memoryFeatureRepository(t),
  onboardings: memoryOnboardingRepository(t),
  onboardingPersons: memoryPersonRepository(t),
  onboardingAttachments: memoryAttachmentRepository(t),
  events: memoryEventRepository(t),
  idempotency: memoryIdempotencyRepository(t),
  jobs: memoryJobRepository(t),
  testClocks: memoryTestClockRepository(t),
  trustedDomainConfigs: memoryTrustedDomainConfigRepository(t),
  usedHostedPageTokens: memoryUsedHostedPageTokenRepository(t),
  workspaceBrandings: memoryWorkspaceBrandingRepository(t),
})
