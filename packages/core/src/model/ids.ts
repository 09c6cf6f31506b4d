import { Schema } from "effect"
import { Text } from "./fields.ts"

/*
 * Branded ids: one Schema per kind of resource, so that a RecipientId passed where a CompanyId is
 * expected does not type-check. A brand is nominal only: it checks nothing at run time and leaves
 * JSON and the OpenAPI document unchanged (a string). An id is branded where it enters the
 * engine: `Ids.next` for new ones, the storage rows for stored ones, request Schemas for ids in a
 * body (`idText`), the job catalogue's payload Schemas for ids in a job, and the HTTP routes for
 * path parameters (decisions.md, "Branded ids").
 */

export const WorkspaceId = Schema.String.pipe(Schema.brand("WorkspaceId"))
export type WorkspaceId = typeof WorkspaceId.Type
export const ApiKeyId = Schema.String.pipe(Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type
export const CompanyId = Schema.String.pipe(Schema.brand("CompanyId"))
export type CompanyId = typeof CompanyId.Type
export const EntityId = Schema.String.pipe(Schema.brand("EntityId"))
export type EntityId = typeof EntityId.Type
export const RecipientId = Schema.String.pipe(Schema.brand("RecipientId"))
export type RecipientId = typeof RecipientId.Type
export const BankAccountId = Schema.String.pipe(Schema.brand("BankAccountId"))
export type BankAccountId = typeof BankAccountId.Type
export const AccountDetailId = Schema.String.pipe(Schema.brand("AccountDetailId"))
export type AccountDetailId = typeof AccountDetailId.Type
export const RoutingDetailId = Schema.String.pipe(Schema.brand("RoutingDetailId"))
export type RoutingDetailId = typeof RoutingDetailId.Type
export const PaymentProfileId = Schema.String.pipe(Schema.brand("PaymentProfileId"))
export type PaymentProfileId = typeof PaymentProfileId.Type
export const QuoteId = Schema.String.pipe(Schema.brand("QuoteId"))
export type QuoteId = typeof QuoteId.Type
export const PaymentId = Schema.String.pipe(Schema.brand("PaymentId"))
export type PaymentId = typeof PaymentId.Type
export const PaymentBatchId = Schema.String.pipe(Schema.brand("PaymentBatchId"))
export type PaymentBatchId = typeof PaymentBatchId.Type
export const JobId = Schema.String.pipe(Schema.brand("JobId"))
export type JobId = typeof JobId.Type
export const EventId = Schema.String.pipe(Schema.brand("EventId"))
export type EventId = typeof EventId.Type
/** The `jti` of a hosted-page token: never stored today, unique so a later step can record used-up tokens. */
export const HostedPageTokenId = Schema.String.pipe(Schema.brand("HostedPageTokenId"))
export type HostedPageTokenId = typeof HostedPageTokenId.Type
/** The id of an entity feature (its enablement application). */
export const ApplicationId = Schema.String.pipe(Schema.brand("ApplicationId"))
export type ApplicationId = typeof ApplicationId.Type
export const WebhookEndpointId = Schema.String.pipe(Schema.brand("WebhookEndpointId"))
export type WebhookEndpointId = typeof WebhookEndpointId.Type
export const WebhookDeliveryId = Schema.String.pipe(Schema.brand("WebhookDeliveryId"))
export type WebhookDeliveryId = typeof WebhookDeliveryId.Type
/** The id of one event an endpoint subscribes to (`webhook_subscribed_events[].id`). */
export const WebhookSubscriptionId = Schema.String.pipe(Schema.brand("WebhookSubscriptionId"))
export type WebhookSubscriptionId = typeof WebhookSubscriptionId.Type
/** The id of an entity's onboarding record. */
export const OnboardingId = Schema.String.pipe(Schema.brand("OnboardingId"))
export type OnboardingId = typeof OnboardingId.Type
/** The id of an onboarding's business details. */
export const BusinessDetailsId = Schema.String.pipe(Schema.brand("BusinessDetailsId"))
export type BusinessDetailsId = typeof BusinessDetailsId.Type
/** The id of one business identifier of an onboarding. */
export const BusinessIdentifierId = Schema.String.pipe(Schema.brand("BusinessIdentifierId"))
export type BusinessIdentifierId = typeof BusinessIdentifierId.Type
/** The id of an onboarding address (business, registration or a person's residential one). */
export const OnboardingAddressId = Schema.String.pipe(Schema.brand("OnboardingAddressId"))
export type OnboardingAddressId = typeof OnboardingAddressId.Type
/** The id of a person of an onboarding. */
export const OnboardingPersonId = Schema.String.pipe(Schema.brand("OnboardingPersonId"))
export type OnboardingPersonId = typeof OnboardingPersonId.Type
/** The id of one identification of a person. */
export const PersonIdentificationId = Schema.String.pipe(Schema.brand("PersonIdentificationId"))
export type PersonIdentificationId = typeof PersonIdentificationId.Type
/** The id of a supporting document of an onboarding (an attachment); also its key in the blob store. */
export const OnboardingAttachmentId = Schema.String.pipe(Schema.brand("OnboardingAttachmentId"))
export type OnboardingAttachmentId = typeof OnboardingAttachmentId.Type
/** The id of a workspace's trusted-domain configuration. */
export const TrustedDomainConfigId = Schema.String.pipe(Schema.brand("TrustedDomainConfigId"))
export type TrustedDomainConfigId = typeof TrustedDomainConfigId.Type

/**
 * The id Schema of every id prefix; `Ids.next(prefix)` returns its type.
 *
 * @example
 * idSchemas.cmp.make("cmp_1") // a CompanyId
 */
export const idSchemas = {
  ws: WorkspaceId,
  key: ApiKeyId,
  cmp: CompanyId,
  ent: EntityId,
  rcp: RecipientId,
  ba: BankAccountId,
  ad: AccountDetailId,
  rd: RoutingDetailId,
  pp: PaymentProfileId,
  qt: QuoteId,
  pay: PaymentId,
  pb: PaymentBatchId,
  job: JobId,
  evt: EventId,
  app: ApplicationId,
  hpt: HostedPageTokenId,
  we: WebhookEndpointId,
  wes: WebhookSubscriptionId,
  whd: WebhookDeliveryId,
  onb: OnboardingId,
  obd: BusinessDetailsId,
  bid: BusinessIdentifierId,
  oad: OnboardingAddressId,
  per: OnboardingPersonId,
  pid: PersonIdentificationId,
  att: OnboardingAttachmentId,
  tdc: TrustedDomainConfigId,
} as const

/** Prefixes of the engine's ids, one per kind of resource. */
export type IdPrefix = keyof typeof idSchemas

/** The branded id type of a prefix: `IdOf<"cmp">` is `CompanyId`. */
export type IdOf<P extends IdPrefix> = (typeof idSchemas)[P]["Type"]

/** Any id Schema above. */
export type IdSchema = (typeof idSchemas)[IdPrefix]

/**
 * A request-body field holding an id of `schema`'s kind: text (a wrong type reads "must be a
 * string"), branded once decoded. Unknown ids are the service's to refuse, as not found.
 *
 * @example
 * const QuoteFields = Schema.Struct({ from_profile_id: idText(PaymentProfileId) })
 */
export const idText = <S extends IdSchema>(schema: S): Schema.Schema<S["Type"], string> =>
  Text.pipe(Schema.compose(schema as Schema.Schema<S["Type"], string>))

/**
 * `raw` branded as an id of `prefix`'s kind, unchecked and free: for `Ids` implementations, and
 * for tests that write ids by hand.
 *
 * @example
 * brandId("cmp", "cmp_1") // a CompanyId
 */
export const brandId = <P extends IdPrefix>(_prefix: P, raw: string): IdOf<P> => raw as IdOf<P>
