/*
 * Branded ids, written out: one type per kind of resource, so that a RecipientId passed where a
 * CompanyId is expected does not type-check. A brand is nominal only: a string at run time, in
 * JSON and in the OpenAPI document. The id Schemas (`../ids.ts`) decode to these types. Each id
 * here is also a value with `make`, all a Promise caller uses of its Schema, so that this file's
 * declarations name no effect type (docs/decisions.md, "Public types"); the
 * `/effect` entry gives the Schemas.
 */

declare const idKind: unique symbol

/** An id of one kind: a string that only the engine's Schemas, `Ids` and {@link brandId} make. */
export type Id<K extends string> = string & { readonly [idKind]: K }

/** What the main entry gives of an id Schema: `make`, to brand an id you know. */
export interface IdMaker<I extends Id<string>> {
  /**
   * `value` as an id of this kind, e.g. a path parameter your routes read.
   *
   * @example
   * CompanyId.make("cmp_1")
   */
  make(value: string): I
}

/**
 * The `make` of one kind of id: brands a string, as the id Schema's `make` of `../ids.ts` does
 * (this module cannot import that one, which imports it).
 */
const idMaker = <I extends Id<string>>(kind: string): IdMaker<I> => ({
  make: (value) => {
    if (typeof value !== "string") throw new TypeError(`${kind}.make: an id is a string, got ${typeof value}`)
    return value as I
  },
})

export type WorkspaceId = Id<"WorkspaceId">
export const WorkspaceId: IdMaker<WorkspaceId> = idMaker("WorkspaceId")
export type ApiKeyId = Id<"ApiKeyId">
export const ApiKeyId: IdMaker<ApiKeyId> = idMaker("ApiKeyId")
export type CompanyId = Id<"CompanyId">
export const CompanyId: IdMaker<CompanyId> = idMaker("CompanyId")
export type EntityId = Id<"EntityId">
export const EntityId: IdMaker<EntityId> = idMaker("EntityId")
export type RecipientId = Id<"RecipientId">
export const RecipientId: IdMaker<RecipientId> = idMaker("RecipientId")
export type BankAccountId = Id<"BankAccountId">
export const BankAccountId: IdMaker<BankAccountId> = idMaker("BankAccountId")
export type AccountDetailId = Id<"AccountDetailId">
export const AccountDetailId: IdMaker<AccountDetailId> = idMaker("AccountDetailId")
export type RoutingDetailId = Id<"RoutingDetailId">
export const RoutingDetailId: IdMaker<RoutingDetailId> = idMaker("RoutingDetailId")
export type PaymentProfileId = Id<"PaymentProfileId">
export const PaymentProfileId: IdMaker<PaymentProfileId> = idMaker("PaymentProfileId")
export type QuoteId = Id<"QuoteId">
export const QuoteId: IdMaker<QuoteId> = idMaker("QuoteId")
export type PaymentId = Id<"PaymentId">
export const PaymentId: IdMaker<PaymentId> = idMaker("PaymentId")
export type PaymentBatchId = Id<"PaymentBatchId">
export const PaymentBatchId: IdMaker<PaymentBatchId> = idMaker("PaymentBatchId")
export type JobId = Id<"JobId">
export const JobId: IdMaker<JobId> = idMaker("JobId")
export type EventId = Id<"EventId">
export const EventId: IdMaker<EventId> = idMaker("EventId")
/** The `jti` of a hosted-page token: never stored today, unique so a later step can record used-up tokens. */
export type HostedPageTokenId = Id<"HostedPageTokenId">
export const HostedPageTokenId: IdMaker<HostedPageTokenId> = idMaker("HostedPageTokenId")
/** The id of an entity feature (its enablement application). */
export type ApplicationId = Id<"ApplicationId">
export const ApplicationId: IdMaker<ApplicationId> = idMaker("ApplicationId")
export type WebhookEndpointId = Id<"WebhookEndpointId">
export const WebhookEndpointId: IdMaker<WebhookEndpointId> = idMaker("WebhookEndpointId")
export type WebhookDeliveryId = Id<"WebhookDeliveryId">
export const WebhookDeliveryId: IdMaker<WebhookDeliveryId> = idMaker("WebhookDeliveryId")
/** The id of a recovery of an endpoint's failed deliveries (`POST .../webhook_endpoints/{id}/recover`). */
export type WebhookRecoveryId = Id<"WebhookRecoveryId">
export const WebhookRecoveryId: IdMaker<WebhookRecoveryId> = idMaker("WebhookRecoveryId")
/** The id of one event an endpoint subscribes to (`webhook_subscribed_events[].id`). */
export type WebhookSubscriptionId = Id<"WebhookSubscriptionId">
export const WebhookSubscriptionId: IdMaker<WebhookSubscriptionId> = idMaker("WebhookSubscriptionId")
/** The id of an entity's onboarding record. */
export type OnboardingId = Id<"OnboardingId">
export const OnboardingId: IdMaker<OnboardingId> = idMaker("OnboardingId")
/** The id of an onboarding's business details. */
export type BusinessDetailsId = Id<"BusinessDetailsId">
export const BusinessDetailsId: IdMaker<BusinessDetailsId> = idMaker("BusinessDetailsId")
/** The id of one business identifier of an onboarding. */
export type BusinessIdentifierId = Id<"BusinessIdentifierId">
export const BusinessIdentifierId: IdMaker<BusinessIdentifierId> = idMaker("BusinessIdentifierId")
/** The id of an onboarding address (business, registration or a person's residential one). */
export type OnboardingAddressId = Id<"OnboardingAddressId">
export const OnboardingAddressId: IdMaker<OnboardingAddressId> = idMaker("OnboardingAddressId")
/** The id of a person of an onboarding. */
export type OnboardingPersonId = Id<"OnboardingPersonId">
export const OnboardingPersonId: IdMaker<OnboardingPersonId> = idMaker("OnboardingPersonId")
/** The id of one identification of a person. */
export type PersonIdentificationId = Id<"PersonIdentificationId">
export const PersonIdentificationId: IdMaker<PersonIdentificationId> = idMaker("PersonIdentificationId")
/** The id of a supporting document of an onboarding (an attachment); also its key in the blob store. */
export type OnboardingAttachmentId = Id<"OnboardingAttachmentId">
export const OnboardingAttachmentId: IdMaker<OnboardingAttachmentId> = idMaker("OnboardingAttachmentId")
/** The id of a workspace's trusted-domain configuration. */
export type TrustedDomainConfigId = Id<"TrustedDomainConfigId">
export const TrustedDomainConfigId: IdMaker<TrustedDomainConfigId> = idMaker("TrustedDomainConfigId")

/** The id type of each prefix of the engine's ids, one per kind of resource. */
export interface IdsByPrefix {
  readonly ws: WorkspaceId
  readonly key: ApiKeyId
  readonly cmp: CompanyId
  readonly ent: EntityId
  readonly rcp: RecipientId
  readonly ba: BankAccountId
  readonly ad: AccountDetailId
  readonly rd: RoutingDetailId
  readonly pp: PaymentProfileId
  readonly qt: QuoteId
  readonly pay: PaymentId
  readonly pb: PaymentBatchId
  readonly job: JobId
  readonly evt: EventId
  readonly app: ApplicationId
  readonly hpt: HostedPageTokenId
  readonly we: WebhookEndpointId
  readonly wes: WebhookSubscriptionId
  readonly whd: WebhookDeliveryId
  readonly wer: WebhookRecoveryId
  readonly onb: OnboardingId
  readonly obd: BusinessDetailsId
  readonly bid: BusinessIdentifierId
  readonly oad: OnboardingAddressId
  readonly per: OnboardingPersonId
  readonly pid: PersonIdentificationId
  readonly att: OnboardingAttachmentId
  readonly tdc: TrustedDomainConfigId
}

/** Prefixes of the engine's ids, one per kind of resource. */
export type IdPrefix = keyof IdsByPrefix

/** The branded id type of a prefix: `IdOf<"cmp">` is `CompanyId`. */
export type IdOf<P extends IdPrefix> = IdsByPrefix[P]

/**
 * `raw` branded as an id of `prefix`'s kind, unchecked and free: for `Ids` implementations, and
 * for tests that write ids by hand.
 *
 * @example
 * brandId("cmp", "cmp_1") // a CompanyId
 */
export const brandId = <P extends IdPrefix>(_prefix: P, raw: string): IdOf<P> => raw as IdOf<P>
