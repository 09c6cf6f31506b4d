import type { Schema } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type * as bankAccountSchemas from "../bank-account.ts"
import type * as bankAccountRequirementsSchemas from "../bank-account-requirements.ts"
import type * as companySchemas from "../company.ts"
import type * as entitySchemas from "../entity.ts"
import type * as eventsSchemas from "../events.ts"
import type * as featureSchemas from "../feature.ts"
import type * as hostedPageTokenSchemas from "../hosted-page-token.ts"
import type * as idempotencySchemas from "../idempotency.ts"
import type * as idSchemas from "../ids.ts"
import type * as jobSchemas from "../job.ts"
import type * as jobKindsSchemas from "../job-kinds.ts"
import type * as onboardingSchemas from "../onboarding.ts"
import type * as onboardingAttachmentSchemas from "../onboarding-attachment.ts"
import type * as onboardingFieldsSchemas from "../onboarding-fields.ts"
import type * as onboardingPersonSchemas from "../onboarding-person.ts"
import type * as paymentSchemas from "../payment.ts"
import type * as paymentBatchSchemas from "../payment-batch.ts"
import type * as quoteSchemas from "../quote.ts"
import type * as recipientSchemas from "../recipient.ts"
import type * as sessionSchemas from "../session.ts"
import type * as testClockSchemas from "../test-clock.ts"
import type * as trustedDomainConfigSchemas from "../trusted-domain-config.ts"
import type * as webhookDeliverySchemas from "../webhook-delivery.ts"
import type * as webhookEndpointSchemas from "../webhook-endpoint.ts"
import type * as webhookRecoverySchemas from "../webhook-recovery.ts"
import type * as workspaceSchemas from "../workspace.ts"
import type * as workspaceBrandingSchemas from "../workspace-branding.ts"
import type * as bankAccount from "./bank-account.ts"
import type * as bankAccountRequirements from "./bank-account-requirements.ts"
import type * as company from "./company.ts"
import type * as entity from "./entity.ts"
import type * as events from "./events.ts"
import type * as feature from "./feature.ts"
import type * as hostedPageToken from "./hosted-page-token.ts"
import type * as idempotency from "./idempotency.ts"
import type * as ids from "./ids.ts"
import type * as job from "./job.ts"
import type * as jobKinds from "./job-kinds.ts"
import type * as onboarding from "./onboarding.ts"
import type * as onboardingAttachment from "./onboarding-attachment.ts"
import type * as onboardingFields from "./onboarding-fields.ts"
import type * as onboardingPerson from "./onboarding-person.ts"
import type * as payment from "./payment.ts"
import type * as paymentBatch from "./payment-batch.ts"
import type * as quote from "./quote.ts"
import type * as recipient from "./recipient.ts"
import type * as session from "./session.ts"
import type * as testClock from "./test-clock.ts"
import type * as trustedDomainConfig from "./trusted-domain-config.ts"
import type * as webhookDelivery from "./webhook-delivery.ts"
import type * as webhookEndpoint from "./webhook-endpoint.ts"
import type * as webhookRecovery from "./webhook-recovery.ts"
import type * as workspace from "./workspace.ts"
import type * as workspaceBranding from "./workspace-branding.ts"

/*
 * The written-out types of `./` are what the main entry names, so that a consumer's compiler
 * loads no effect declaration; the Schemas of `../` decode to and from them. Each type here must
 * be its Schema's `Type` (or `Encoded`, for a body as an embedder writes it) exactly: a field
 * added to a Schema and not to its type, or typed otherwise, fails `tsc -b` on the line below.
 */
describe("the written-out model types", () => {
  it("of bank account requirements are its Schemas' types", () => {
    expectTypeOf<bankAccountRequirements.PaymentMethod>().toEqualTypeOf<
      typeof bankAccountRequirementsSchemas.PaymentMethod.Type
    >()
    expectTypeOf<bankAccountRequirements.FieldRule>().toEqualTypeOf<
      typeof bankAccountRequirementsSchemas.FieldRule.Type
    >()
    expectTypeOf<bankAccountRequirements.RequirementField>().toEqualTypeOf<
      typeof bankAccountRequirementsSchemas.RequirementField.Type
    >()
    expectTypeOf<bankAccountRequirements.BankAccountRequirements>().toEqualTypeOf<
      typeof bankAccountRequirementsSchemas.BankAccountRequirements.Type
    >()
    expectTypeOf<bankAccountRequirements.RequirementsRequest>().toEqualTypeOf<
      typeof bankAccountRequirementsSchemas.RequirementsRequest.Type
    >()
    expectTypeOf<bankAccountRequirements.RequirementsBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof bankAccountRequirementsSchemas.RequirementsRequest>
    >()
  })

  it("of bank account are its Schemas' types", () => {
    expectTypeOf<bankAccount.ProfileStatus>().toEqualTypeOf<typeof bankAccountSchemas.ProfileStatus.Type>()
    expectTypeOf<bankAccount.UsageType>().toEqualTypeOf<typeof bankAccountSchemas.UsageType.Type>()
    expectTypeOf<bankAccount.OwnerType>().toEqualTypeOf<typeof bankAccountSchemas.OwnerType.Type>()
    expectTypeOf<bankAccount.AccountNumberType>().toEqualTypeOf<typeof bankAccountSchemas.AccountNumberType.Type>()
    expectTypeOf<bankAccount.PaymentProfile>().toEqualTypeOf<typeof bankAccountSchemas.PaymentProfile.Type>()
    expectTypeOf<bankAccount.PaymentProfileSummary>().toEqualTypeOf<
      typeof bankAccountSchemas.PaymentProfileSummary.Type
    >()
    expectTypeOf<bankAccount.AccountDetailRecord>().toEqualTypeOf<typeof bankAccountSchemas.AccountDetail.Type>()
    expectTypeOf<bankAccount.RoutingDetailRecord>().toEqualTypeOf<typeof bankAccountSchemas.RoutingDetail.Type>()
    expectTypeOf<bankAccount.PartyAddressRecord>().toEqualTypeOf<typeof bankAccountSchemas.PartyAddress.Type>()
    expectTypeOf<bankAccount.BankAccount>().toEqualTypeOf<typeof bankAccountSchemas.BankAccount.Type>()
    expectTypeOf<bankAccount.BankAccountOwner>().toEqualTypeOf<typeof bankAccountSchemas.BankAccountOwner.Type>()
    expectTypeOf<bankAccount.BankAccountRecord>().toEqualTypeOf<typeof bankAccountSchemas.StoredBankAccount.Type>()
    expectTypeOf<bankAccount.PaymentProfileRecord>().toEqualTypeOf<
      typeof bankAccountSchemas.StoredPaymentProfile.Type
    >()
    expectTypeOf<bankAccount.BankAccountCreate>().toEqualTypeOf<typeof bankAccountSchemas.BankAccountCreate.Type>()
    expectTypeOf<bankAccount.BankAccountCreateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof bankAccountSchemas.BankAccountCreate>
    >()
    expectTypeOf<bankAccount.FundingAccountLinkBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof bankAccountSchemas.FundingAccountLink>
    >()
    expectTypeOf<bankAccount.FundingMandate>().toEqualTypeOf<typeof bankAccountSchemas.FundingMandate.Type>()
    expectTypeOf<bankAccount.FundingMandateRecord>().toEqualTypeOf<
      typeof bankAccountSchemas.StoredFundingMandate.Type
    >()
  })

  it("of company are its Schemas' types", () => {
    expectTypeOf<company.CompanyRole>().toEqualTypeOf<typeof companySchemas.CompanyRole.Type>()
    expectTypeOf<company.Company>().toEqualTypeOf<typeof companySchemas.Company.Type>()
    expectTypeOf<company.CompanyRecord>().toEqualTypeOf<typeof companySchemas.StoredCompany.Type>()
    expectTypeOf<company.CompanyCreate>().toEqualTypeOf<typeof companySchemas.CompanyCreate.Type>()
    expectTypeOf<company.CompanyCreateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof companySchemas.CompanyCreate>
    >()
    expectTypeOf<company.CompanyUpdate>().toEqualTypeOf<typeof companySchemas.CompanyUpdate.Type>()
    expectTypeOf<company.CompanyUpdateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof companySchemas.CompanyUpdate>
    >()
  })

  it("of entity are its Schemas' types", () => {
    expectTypeOf<entity.Entity>().toEqualTypeOf<typeof entitySchemas.Entity.Type>()
    expectTypeOf<entity.EntityRecord>().toEqualTypeOf<typeof entitySchemas.StoredEntity.Type>()
    expectTypeOf<entity.EntityCreate>().toEqualTypeOf<typeof entitySchemas.EntityCreate.Type>()
    expectTypeOf<entity.EntityCreateBody>().toEqualTypeOf<Schema.Schema.Encoded<typeof entitySchemas.EntityCreate>>()
    expectTypeOf<entity.EntityUpdate>().toEqualTypeOf<typeof entitySchemas.EntityUpdate.Type>()
    expectTypeOf<entity.EntityUpdateBody>().toEqualTypeOf<Schema.Schema.Encoded<typeof entitySchemas.EntityUpdate>>()
    expectTypeOf<entity.EntityDeleted>().toEqualTypeOf<typeof entitySchemas.EntityDeleted.Type>()
  })

  it("of events are its Schemas' types", () => {
    expectTypeOf<events.WebhookEventCategoryEntry>().toEqualTypeOf<
      typeof eventsSchemas.WebhookEventCategoryEntry.Type
    >()
    expectTypeOf<events.EventRecord>().toEqualTypeOf<typeof eventsSchemas.StoredEvent.Type>()
    expectTypeOf<events.EventListQuery>().toEqualTypeOf<typeof eventsSchemas.EventListQuery.Type>()
    expectTypeOf<events.EventResource>().toEqualTypeOf<typeof eventsSchemas.EventResource.Type>()
  })

  it("of feature are its Schemas' types", () => {
    expectTypeOf<feature.FeatureStatusValue>().toEqualTypeOf<typeof featureSchemas.FeatureStatusSchema.Type>()
    expectTypeOf<feature.Feature>().toEqualTypeOf<typeof featureSchemas.Feature.Type>()
    expectTypeOf<feature.FeatureRecord>().toEqualTypeOf<typeof featureSchemas.StoredFeature.Type>()
    expectTypeOf<feature.FeatureEnable>().toEqualTypeOf<typeof featureSchemas.FeatureEnable.Type>()
    expectTypeOf<feature.FeatureEnableBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof featureSchemas.FeatureEnable>
    >()
    expectTypeOf<feature.FeatureStatusChange>().toEqualTypeOf<typeof featureSchemas.FeatureStatusChange.Type>()
    expectTypeOf<feature.FeatureStatusChangeBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof featureSchemas.FeatureStatusChange>
    >()
  })

  it("of hosted page token are its Schemas' types", () => {
    expectTypeOf<hostedPageToken.RecipientTokenRequest>().toEqualTypeOf<
      typeof hostedPageTokenSchemas.RecipientTokenRequest.Type
    >()
    expectTypeOf<hostedPageToken.FeatureTokenRequest>().toEqualTypeOf<
      typeof hostedPageTokenSchemas.FeatureTokenRequest.Type
    >()
    expectTypeOf<hostedPageToken.EntityHostedPageTokenBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof hostedPageTokenSchemas.EntityHostedPageTokenRequest>
    >()
    expectTypeOf<hostedPageToken.FundingTokenRequest>().toEqualTypeOf<
      typeof hostedPageTokenSchemas.FundingTokenRequest.Type
    >()
    expectTypeOf<hostedPageToken.FundingTokenBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof hostedPageTokenSchemas.FundingTokenRequest>
    >()
    expectTypeOf<hostedPageToken.HostedPageToken>().toEqualTypeOf<typeof hostedPageTokenSchemas.HostedPageToken.Type>()
    expectTypeOf<hostedPageToken.UsedHostedPageTokenRecord>().toEqualTypeOf<
      typeof hostedPageTokenSchemas.StoredUsedHostedPageToken.Type
    >()
  })

  it("of idempotency are its Schemas' types", () => {
    expectTypeOf<idempotency.IdempotencyRecord>().toEqualTypeOf<
      typeof idempotencySchemas.StoredIdempotencyRecord.Type
    >()
  })

  it("of job are its Schemas' types", () => {
    expectTypeOf<job.JobRequest>().toEqualTypeOf<typeof jobSchemas.StoredJob.Type>()
  })

  it("of onboarding attachment are its Schemas' types", () => {
    expectTypeOf<onboardingAttachment.OnboardingAttachment>().toEqualTypeOf<
      typeof onboardingAttachmentSchemas.OnboardingAttachment.Type
    >()
    expectTypeOf<onboardingAttachment.AttachmentRecord>().toEqualTypeOf<
      typeof onboardingAttachmentSchemas.StoredAttachment.Type
    >()
  })

  it("of onboarding fields are its Schemas' types", () => {
    expectTypeOf<onboardingFields.OnboardingAddress>().toEqualTypeOf<
      typeof onboardingFieldsSchemas.OnboardingAddress.Type
    >()
    expectTypeOf<onboardingFields.AddressInput>().toEqualTypeOf<typeof onboardingFieldsSchemas.AddressInput.Type>()
  })

  it("of onboarding person are its Schemas' types", () => {
    expectTypeOf<onboardingPerson.PersonIdentification>().toEqualTypeOf<
      typeof onboardingPersonSchemas.PersonIdentification.Type
    >()
    expectTypeOf<onboardingPerson.OnboardingPerson>().toEqualTypeOf<
      typeof onboardingPersonSchemas.OnboardingPerson.Type
    >()
    expectTypeOf<onboardingPerson.StoredIdentification>().toEqualTypeOf<
      typeof onboardingPersonSchemas.StoredIdentification.Type
    >()
    expectTypeOf<onboardingPerson.StoredPersonDetails>().toEqualTypeOf<
      typeof onboardingPersonSchemas.StoredPersonDetails.Type
    >()
    expectTypeOf<onboardingPerson.PersonRecord>().toEqualTypeOf<typeof onboardingPersonSchemas.StoredPerson.Type>()
    expectTypeOf<onboardingPerson.IdentificationInput>().toEqualTypeOf<
      typeof onboardingPersonSchemas.IdentificationInput.Type
    >()
    expectTypeOf<onboardingPerson.PersonInput>().toEqualTypeOf<typeof onboardingPersonSchemas.PersonInput.Type>()
    expectTypeOf<onboardingPerson.PersonBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof onboardingPersonSchemas.PersonInput>
    >()
  })

  it("of onboarding are its Schemas' types", () => {
    expectTypeOf<onboarding.BusinessIdentifier>().toEqualTypeOf<typeof onboardingSchemas.BusinessIdentifier.Type>()
    expectTypeOf<onboarding.BusinessDetails>().toEqualTypeOf<typeof onboardingSchemas.BusinessDetails.Type>()
    expectTypeOf<onboarding.EntityOnboarding>().toEqualTypeOf<typeof onboardingSchemas.EntityOnboarding.Type>()
    expectTypeOf<onboarding.OnboardingRecord>().toEqualTypeOf<typeof onboardingSchemas.StoredOnboarding.Type>()
    expectTypeOf<onboarding.OnboardingUpdate>().toEqualTypeOf<typeof onboardingSchemas.OnboardingUpdate.Type>()
    expectTypeOf<onboarding.OnboardingUpdateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof onboardingSchemas.OnboardingUpdate>
    >()
  })

  it("of payment batch are its Schemas' types", () => {
    expectTypeOf<paymentBatch.PaymentBatchStatusValue>().toEqualTypeOf<
      typeof paymentBatchSchemas.PaymentBatchStatusSchema.Type
    >()
    expectTypeOf<paymentBatch.Metadata>().toEqualTypeOf<typeof paymentBatchSchemas.Metadata.Type>()
    expectTypeOf<paymentBatch.PaymentBatch>().toEqualTypeOf<typeof paymentBatchSchemas.PaymentBatch.Type>()
    expectTypeOf<paymentBatch.PaymentBatchRecord>().toEqualTypeOf<typeof paymentBatchSchemas.StoredPaymentBatch.Type>()
    expectTypeOf<paymentBatch.PaymentBatchFields>().toEqualTypeOf<typeof paymentBatchSchemas.PaymentBatchFields.Type>()
    expectTypeOf<paymentBatch.PaymentBatchCreateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof paymentBatchSchemas.PaymentBatchCreate>
    >()
    expectTypeOf<paymentBatch.PaymentBatchListQuery>().toEqualTypeOf<
      typeof paymentBatchSchemas.PaymentBatchListQuery.Type
    >()
  })

  it("of payment are its Schemas' types", () => {
    expectTypeOf<payment.PaymentStatusValue>().toEqualTypeOf<typeof paymentSchemas.PaymentStatusSchema.Type>()
    expectTypeOf<payment.PaymentReason>().toEqualTypeOf<typeof paymentSchemas.PaymentReason.Type>()
    expectTypeOf<payment.PaymentInstruction>().toEqualTypeOf<typeof paymentSchemas.PaymentInstruction.Type>()
    expectTypeOf<payment.PaymentRecord>().toEqualTypeOf<typeof paymentSchemas.StoredPayment.Type>()
    expectTypeOf<payment.PaymentFields>().toEqualTypeOf<typeof paymentSchemas.PaymentFields.Type>()
    expectTypeOf<payment.PaymentCreateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof paymentSchemas.PaymentCreate>
    >()
    expectTypeOf<payment.PaymentListQuery>().toEqualTypeOf<typeof paymentSchemas.PaymentListQuery.Type>()
  })

  it("of quote are its Schemas' types", () => {
    expectTypeOf<quote.FeeStrategy>().toEqualTypeOf<typeof quoteSchemas.FeeStrategy.Type>()
    expectTypeOf<quote.Quote>().toEqualTypeOf<typeof quoteSchemas.Quote.Type>()
    expectTypeOf<quote.QuoteRecord>().toEqualTypeOf<typeof quoteSchemas.StoredQuote.Type>()
    expectTypeOf<quote.QuoteFields>().toEqualTypeOf<typeof quoteSchemas.QuoteFields.Type>()
    expectTypeOf<quote.QuoteCreateBody>().toEqualTypeOf<Schema.Schema.Encoded<typeof quoteSchemas.QuoteCreate>>()
  })

  it("of recipient are its Schemas' types", () => {
    expectTypeOf<recipient.Recipient>().toEqualTypeOf<typeof recipientSchemas.Recipient.Type>()
    expectTypeOf<recipient.RecipientRecord>().toEqualTypeOf<typeof recipientSchemas.StoredRecipient.Type>()
    expectTypeOf<recipient.RecipientCreate>().toEqualTypeOf<typeof recipientSchemas.RecipientCreate.Type>()
    expectTypeOf<recipient.RecipientCreateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof recipientSchemas.RecipientCreate>
    >()
  })

  it("of session are its Schemas' types", () => {
    expectTypeOf<session.ApiKeyScope>().toEqualTypeOf<typeof sessionSchemas.ApiKeyScope.Type>()
    expectTypeOf<session.SessionCreate>().toEqualTypeOf<typeof sessionSchemas.SessionCreate.Type>()
    expectTypeOf<session.SessionCreateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof sessionSchemas.SessionCreate>
    >()
    expectTypeOf<session.Session>().toEqualTypeOf<typeof sessionSchemas.Session.Type>()
  })

  it("of test clock are its Schemas' types", () => {
    expectTypeOf<testClock.ClockAdvanceBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof testClockSchemas.ClockAdvance>
    >()
    expectTypeOf<testClock.ClockAdvanced>().toEqualTypeOf<typeof testClockSchemas.ClockAdvanced.Type>()
  })

  it("of trusted domain config are its Schemas' types", () => {
    expectTypeOf<trustedDomainConfig.TrustedDomainConfig>().toEqualTypeOf<
      typeof trustedDomainConfigSchemas.TrustedDomainConfig.Type
    >()
    expectTypeOf<trustedDomainConfig.TrustedDomainConfigRecord>().toEqualTypeOf<
      typeof trustedDomainConfigSchemas.StoredTrustedDomainConfig.Type
    >()
  })

  it("of webhook delivery are its Schemas' types", () => {
    expectTypeOf<webhookDelivery.WebhookDeliveryStateValue>().toEqualTypeOf<
      typeof webhookDeliverySchemas.WebhookDeliveryState.Type
    >()
    expectTypeOf<webhookDelivery.WebhookDeliveryAttempt>().toEqualTypeOf<
      typeof webhookDeliverySchemas.WebhookDeliveryAttempt.Type
    >()
    expectTypeOf<webhookDelivery.WebhookDelivery>().toEqualTypeOf<typeof webhookDeliverySchemas.WebhookDelivery.Type>()
    expectTypeOf<webhookDelivery.WebhookDeliveryRecord>().toEqualTypeOf<
      typeof webhookDeliverySchemas.StoredWebhookDelivery.Type
    >()
    expectTypeOf<webhookDelivery.WebhookEndpointTest>().toEqualTypeOf<
      typeof webhookDeliverySchemas.WebhookEndpointTest.Type
    >()
  })

  it("of webhook endpoint are its Schemas' types", () => {
    expectTypeOf<webhookEndpoint.WebhookEndpoint>().toEqualTypeOf<typeof webhookEndpointSchemas.WebhookEndpoint.Type>()
    expectTypeOf<webhookEndpoint.WebhookSecretRotated>().toEqualTypeOf<
      typeof webhookEndpointSchemas.WebhookSecretRotated.Type
    >()
    expectTypeOf<webhookEndpoint.WebhookEndpointCreated>().toEqualTypeOf<
      typeof webhookEndpointSchemas.WebhookEndpointCreated.Type
    >()
    expectTypeOf<webhookEndpoint.StoredWebhookSubscription>().toEqualTypeOf<
      typeof webhookEndpointSchemas.StoredWebhookSubscription.Type
    >()
    expectTypeOf<webhookEndpoint.WebhookEndpointRecord>().toEqualTypeOf<
      typeof webhookEndpointSchemas.StoredWebhookEndpoint.Type
    >()
    expectTypeOf<webhookEndpoint.WebhookEndpointCreate>().toEqualTypeOf<
      typeof webhookEndpointSchemas.WebhookEndpointCreate.Type
    >()
    expectTypeOf<webhookEndpoint.WebhookEndpointCreateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof webhookEndpointSchemas.WebhookEndpointCreate>
    >()
    expectTypeOf<webhookEndpoint.WebhookEndpointUpdate>().toEqualTypeOf<
      typeof webhookEndpointSchemas.WebhookEndpointUpdate.Type
    >()
    expectTypeOf<webhookEndpoint.WebhookEndpointUpdateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof webhookEndpointSchemas.WebhookEndpointUpdate>
    >()
    expectTypeOf<webhookEndpoint.WebhookEndpointListQuery>().toEqualTypeOf<
      typeof webhookEndpointSchemas.WebhookEndpointListQuery.Type
    >()
  })

  it("of webhook recovery are its Schemas' types", () => {
    expectTypeOf<webhookRecovery.WebhookRecoveryStatus>().toEqualTypeOf<
      typeof webhookRecoverySchemas.WebhookRecoveryStatus.Type
    >()
    expectTypeOf<webhookRecovery.WebhookRecovery>().toEqualTypeOf<typeof webhookRecoverySchemas.WebhookRecovery.Type>()
    expectTypeOf<webhookRecovery.WebhookRecoveryRecord>().toEqualTypeOf<
      typeof webhookRecoverySchemas.StoredWebhookRecovery.Type
    >()
    expectTypeOf<webhookRecovery.WebhookRecoveryCreate>().toEqualTypeOf<
      typeof webhookRecoverySchemas.WebhookRecoveryCreate.Type
    >()
    expectTypeOf<webhookRecovery.WebhookRecoveryCreateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof webhookRecoverySchemas.WebhookRecoveryCreate>
    >()
  })

  it("of workspace branding are its Schemas' types", () => {
    expectTypeOf<workspaceBranding.WorkspaceBranding>().toEqualTypeOf<
      typeof workspaceBrandingSchemas.WorkspaceBranding.Type
    >()
    expectTypeOf<workspaceBranding.WorkspaceBrandingUpdate>().toEqualTypeOf<
      typeof workspaceBrandingSchemas.WorkspaceBrandingUpdate.Type
    >()
    expectTypeOf<workspaceBranding.WorkspaceBrandingUpdateBody>().toEqualTypeOf<
      Schema.Schema.Encoded<typeof workspaceBrandingSchemas.WorkspaceBrandingUpdate>
    >()
    expectTypeOf<workspaceBranding.WorkspaceBrandingRecord>().toEqualTypeOf<
      typeof workspaceBrandingSchemas.StoredWorkspaceBranding.Type
    >()
  })

  it("of workspace are its Schemas' types", () => {
    expectTypeOf<workspace.WorkspaceRecord>().toEqualTypeOf<typeof workspaceSchemas.StoredWorkspace.Type>()
    expectTypeOf<workspace.ApiKeyRecord>().toEqualTypeOf<typeof workspaceSchemas.StoredApiKey.Type>()
  })

  it("of ids are the id Schemas' types, by prefix", () => {
    type SchemaIds = { readonly [P in keyof typeof idSchemas.idSchemas]: (typeof idSchemas.idSchemas)[P]["Type"] }
    expectTypeOf<ids.IdsByPrefix>().toEqualTypeOf<SchemaIds>()
    expectTypeOf<ids.CompanyId>().not.toEqualTypeOf<ids.RecipientId>()
  })

  it("of the webhook catalogue are its categories and event names", () => {
    type Catalogue = typeof eventsSchemas.webhookEventCatalogue
    expectTypeOf<events.WebhookEventCategory>().toEqualTypeOf<keyof Catalogue>()
    expectTypeOf<events.WebhookEventNames>().toEqualTypeOf<{ readonly [C in keyof Catalogue]: keyof Catalogue[C] }>()
  })

  it("of job kinds are the kinds of the job table", () => {
    expectTypeOf<jobKinds.JobKindName>().toEqualTypeOf<keyof typeof jobKindsSchemas.jobKindDefinitions>()
  })
})
