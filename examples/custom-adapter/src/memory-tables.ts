import type {
  ApiKeyRecord,
  ApplicationId,
  AttachmentRecord,
  BankAccountId,
  BankAccountRecord,
  CompanyId,
  CompanyRecord,
  EntityId,
  EntityRecord,
  EventId,
  EventRecord,
  FeatureRecord,
  FundingMandateRecord,
  IdempotencyRecord,
  OnboardingAttachmentId,
  OnboardingId,
  OnboardingPersonId,
  OnboardingRecord,
  PaymentBatchId,
  PaymentBatchRecord,
  PaymentId,
  PaymentProfileId,
  PaymentProfileRecord,
  PaymentRecord,
  PersonRecord,
  QuoteId,
  QuoteRecord,
  RecipientId,
  RecipientRecord,
  TrustedDomainConfigRecord,
  UsedHostedPageTokenRecord,
  WebhookDeliveryId,
  WebhookDeliveryRecord,
  WebhookEndpointId,
  WebhookEndpointRecord,
  WebhookRecoveryId,
  WebhookRecoveryRecord,
  WorkspaceBrandingRecord,
  WorkspaceId,
  WorkspaceRecord,
} from "@payments-engine/core"
import type { MemoryJob } from "./memory-job-table.ts"

/**
 * Everything the memory storage keeps, one map per table. Records are immutable: a write
 * replaces the map entry, so a copy of the maps is a snapshot a transaction may change freely.
 */
export interface Tables {
  readonly workspaces: Map<WorkspaceId, WorkspaceRecord>
  /** By the public `key`, which is unique. */
  readonly apiKeys: Map<string, ApiKeyRecord>
  readonly settings: Map<string, string>
  readonly companies: Map<CompanyId, CompanyRecord>
  readonly entities: Map<EntityId, EntityRecord>
  readonly recipients: Map<RecipientId, RecipientRecord>
  readonly bankAccounts: Map<BankAccountId, BankAccountRecord>
  readonly paymentProfiles: Map<PaymentProfileId, PaymentProfileRecord>
  /** Funding mandates, by bank account: one each at most. */
  readonly fundingMandates: Map<string, FundingMandateRecord>
  readonly quotes: Map<QuoteId, QuoteRecord>
  readonly payments: Map<PaymentId, PaymentRecord>
  readonly paymentBatches: Map<PaymentBatchId, PaymentBatchRecord>
  readonly webhookEndpoints: Map<WebhookEndpointId, WebhookEndpointRecord>
  readonly webhookDeliveries: Map<WebhookDeliveryId, WebhookDeliveryRecord>
  readonly webhookRecoveries: Map<WebhookRecoveryId, WebhookRecoveryRecord>
  readonly onboardings: Map<OnboardingId, OnboardingRecord>
  readonly onboardingPersons: Map<OnboardingPersonId, PersonRecord>
  readonly onboardingAttachments: Map<OnboardingAttachmentId, AttachmentRecord>
  /** By application id. */
  readonly features: Map<ApplicationId, FeatureRecord>
  readonly events: Map<EventId, EventRecord>
  /** By workspace and key (see `repositories/idempotency.ts`). */
  readonly idempotency: Map<string, IdempotencyRecord>
  readonly jobs: Map<string, MemoryJob>
  /** Test clocks (sandbox mode): milliseconds ahead of the engine's clock, by workspace. */
  readonly testClocks: Map<string, number>
  /** Trusted-domain configurations, by workspace: at most one each. */
  readonly trustedDomainConfigs: Map<string, TrustedDomainConfigRecord>
  /** Used-up hosted-page tokens, by token id. */
  readonly usedHostedPageTokens: Map<string, UsedHostedPageTokenRecord>
  /** Workspace brandings, by workspace: at most one each. */
  readonly workspaceBrandings: Map<string, WorkspaceBrandingRecord>
}

export const emptyTables = (): Tables => ({
  workspaces: new Map(),
  apiKeys: new Map(),
  settings: new Map(),
  companies: new Map(),
  entities: new Map(),
  recipients: new Map(),
  bankAccounts: new Map(),
  paymentProfiles: new Map(),
  fundingMandates: new Map(),
  quotes: new Map(),
  payments: new Map(),
  paymentBatches: new Map(),
  webhookEndpoints: new Map(),
  webhookDeliveries: new Map(),
  webhookRecoveries: new Map(),
  onboardings: new Map(),
  onboardingPersons: new Map(),
  onboardingAttachments: new Map(),
  features: new Map(),
  events: new Map(),
  idempotency: new Map(),
  jobs: new Map(),
  testClocks: new Map(),
  trustedDomainConfigs: new Map(),
  usedHostedPageTokens: new Map(),
  workspaceBrandings: new Map(),
})

/** A copy a transaction may change freely: new maps over the same (frozen) records. */
export const copyTables = (t: Tables): Tables => ({
  workspaces: new Map(t.workspaces),
  apiKeys: new Map(t.apiKeys),
  settings: new Map(t.settings),
  companies: new Map(t.companies),
  entities: new Map(t.entities),
  recipients: new Map(t.recipients),
  bankAccounts: new Map(t.bankAccounts),
  paymentProfiles: new Map(t.paymentProfiles),
  fundingMandates: new Map(t.fundingMandates),
  quotes: new Map(t.quotes),
  payments: new Map(t.payments),
  paymentBatches: new Map(t.paymentBatches),
  webhookEndpoints: new Map(t.webhookEndpoints),
  webhookDeliveries: new Map(t.webhookDeliveries),
  webhookRecoveries: new Map(t.webhookRecoveries),
  onboardings: new Map(t.onboardings),
  onboardingPersons: new Map(t.onboardingPersons),
  onboardingAttachments: new Map(t.onboardingAttachments),
  features: new Map(t.features),
  events: new Map(t.events),
  idempotency: new Map(t.idempotency),
  jobs: new Map(t.jobs),
  testClocks: new Map(t.testClocks),
  trustedDomainConfigs: new Map(t.trustedDomainConfigs),
  usedHostedPageTokens: new Map(t.usedHostedPageTokens),
  workspaceBrandings: new Map(t.workspaceBrandings),
})
