import { Schema } from "effect"
import { Text } from "./fields.ts"
import type * as Ids from "./types/ids.ts"

/*
 * Branded ids: one Schema per kind of resource, so that a RecipientId passed where a CompanyId is
 * expected does not type-check. A brand is nominal only: it checks nothing at run time and leaves
 * JSON and the OpenAPI document unchanged (a string). An id is branded where it enters the
 * engine: `Ids.next` for new ones, the storage rows for stored ones, request Schemas for ids in a
 * body (`idText`), the job catalogue's payload Schemas for ids in a job, and the HTTP routes for
 * path parameters (decisions.md, "Branded ids"). The types are written out in `./types/ids.ts`,
 * which names no effect declaration; each Schema here decodes to its type there.
 */

export type { Id, IdOf, IdPrefix, IdsByPrefix } from "./types/ids.ts"
export { brandId } from "./types/ids.ts"

/** The Schema of one kind of id: text on the wire, `I` once decoded; `make` brands a known id. */
export interface BrandedIdSchema<I extends Ids.Id<string>> extends Schema.Schema<I, string> {
  /** `value` as an id of this kind. */
  make(value: string): I
}

/**
 * Effect's brand at run time (its annotation, its `make`), typed with the written-out
 * `Id<K>` instead of Effect's `Brand<K>`: both are nominal only, a string at run time, and the
 * written-out one is what the public types name.
 */
const idSchema = <K extends string>(kind: K): BrandedIdSchema<Ids.Id<K>> =>
  Schema.String.pipe(Schema.brand(kind)) as unknown as BrandedIdSchema<Ids.Id<K>>

export const WorkspaceId: BrandedIdSchema<Ids.WorkspaceId> = idSchema("WorkspaceId")
export type WorkspaceId = Ids.WorkspaceId
export const ApiKeyId: BrandedIdSchema<Ids.ApiKeyId> = idSchema("ApiKeyId")
export type ApiKeyId = Ids.ApiKeyId
export const CompanyId: BrandedIdSchema<Ids.CompanyId> = idSchema("CompanyId")
export type CompanyId = Ids.CompanyId
export const EntityId: BrandedIdSchema<Ids.EntityId> = idSchema("EntityId")
export type EntityId = Ids.EntityId
export const RecipientId: BrandedIdSchema<Ids.RecipientId> = idSchema("RecipientId")
export type RecipientId = Ids.RecipientId
export const BankAccountId: BrandedIdSchema<Ids.BankAccountId> = idSchema("BankAccountId")
export type BankAccountId = Ids.BankAccountId
export const AccountDetailId: BrandedIdSchema<Ids.AccountDetailId> = idSchema("AccountDetailId")
export type AccountDetailId = Ids.AccountDetailId
export const RoutingDetailId: BrandedIdSchema<Ids.RoutingDetailId> = idSchema("RoutingDetailId")
export type RoutingDetailId = Ids.RoutingDetailId
export const PaymentProfileId: BrandedIdSchema<Ids.PaymentProfileId> = idSchema("PaymentProfileId")
export type PaymentProfileId = Ids.PaymentProfileId
export const QuoteId: BrandedIdSchema<Ids.QuoteId> = idSchema("QuoteId")
export type QuoteId = Ids.QuoteId
export const PaymentId: BrandedIdSchema<Ids.PaymentId> = idSchema("PaymentId")
export type PaymentId = Ids.PaymentId
export const PaymentBatchId: BrandedIdSchema<Ids.PaymentBatchId> = idSchema("PaymentBatchId")
export type PaymentBatchId = Ids.PaymentBatchId
export const JobId: BrandedIdSchema<Ids.JobId> = idSchema("JobId")
export type JobId = Ids.JobId
export const EventId: BrandedIdSchema<Ids.EventId> = idSchema("EventId")
export type EventId = Ids.EventId
/** The `jti` of a hosted-page token: never stored today, unique so a later step can record used-up tokens. */
export const HostedPageTokenId: BrandedIdSchema<Ids.HostedPageTokenId> = idSchema("HostedPageTokenId")
export type HostedPageTokenId = Ids.HostedPageTokenId
/** The id of an entity feature (its enablement application). */
export const ApplicationId: BrandedIdSchema<Ids.ApplicationId> = idSchema("ApplicationId")
export type ApplicationId = Ids.ApplicationId
export const WebhookEndpointId: BrandedIdSchema<Ids.WebhookEndpointId> = idSchema("WebhookEndpointId")
export type WebhookEndpointId = Ids.WebhookEndpointId
export const WebhookDeliveryId: BrandedIdSchema<Ids.WebhookDeliveryId> = idSchema("WebhookDeliveryId")
export type WebhookDeliveryId = Ids.WebhookDeliveryId
/** The id of a recovery of an endpoint's failed deliveries (`POST .../webhook_endpoints/{id}/recover`). */
export const WebhookRecoveryId: BrandedIdSchema<Ids.WebhookRecoveryId> = idSchema("WebhookRecoveryId")
export type WebhookRecoveryId = Ids.WebhookRecoveryId
/** The id of one event an endpoint subscribes to (`webhook_subscribed_events[].id`). */
export const WebhookSubscriptionId: BrandedIdSchema<Ids.WebhookSubscriptionId> = idSchema("WebhookSubscriptionId")
export type WebhookSubscriptionId = Ids.WebhookSubscriptionId
/** The id of an entity's onboarding record. */
export const OnboardingId: BrandedIdSchema<Ids.OnboardingId> = idSchema("OnboardingId")
export type OnboardingId = Ids.OnboardingId
/** The id of an onboarding's business details. */
export const BusinessDetailsId: BrandedIdSchema<Ids.BusinessDetailsId> = idSchema("BusinessDetailsId")
export type BusinessDetailsId = Ids.BusinessDetailsId
/** The id of one business identifier of an onboarding. */
export const BusinessIdentifierId: BrandedIdSchema<Ids.BusinessIdentifierId> = idSchema("BusinessIdentifierId")
export type BusinessIdentifierId = Ids.BusinessIdentifierId
/** The id of an onboarding address (business, registration or a person's residential one). */
export const OnboardingAddressId: BrandedIdSchema<Ids.OnboardingAddressId> = idSchema("OnboardingAddressId")
export type OnboardingAddressId = Ids.OnboardingAddressId
/** The id of a person of an onboarding. */
export const OnboardingPersonId: BrandedIdSchema<Ids.OnboardingPersonId> = idSchema("OnboardingPersonId")
export type OnboardingPersonId = Ids.OnboardingPersonId
/** The id of one identification of a person. */
export const PersonIdentificationId: BrandedIdSchema<Ids.PersonIdentificationId> = idSchema("PersonIdentificationId")
export type PersonIdentificationId = Ids.PersonIdentificationId
/** The id of a supporting document of an onboarding (an attachment); also its key in the blob store. */
export const OnboardingAttachmentId: BrandedIdSchema<Ids.OnboardingAttachmentId> = idSchema("OnboardingAttachmentId")
export type OnboardingAttachmentId = Ids.OnboardingAttachmentId
/** The id of a workspace's trusted-domain configuration. */
export const TrustedDomainConfigId: BrandedIdSchema<Ids.TrustedDomainConfigId> = idSchema("TrustedDomainConfigId")
export type TrustedDomainConfigId = Ids.TrustedDomainConfigId

/**
 * The id Schema of every id prefix; `Ids.next(prefix)` returns its type.
 *
 * @example
 * idSchemas.cmp.make("cmp_1") // a CompanyId
 */
export const idSchemas: { readonly [P in Ids.IdPrefix]: BrandedIdSchema<Ids.IdOf<P>> } = {
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
  wer: WebhookRecoveryId,
  onb: OnboardingId,
  obd: BusinessDetailsId,
  bid: BusinessIdentifierId,
  oad: OnboardingAddressId,
  per: OnboardingPersonId,
  pid: PersonIdentificationId,
  att: OnboardingAttachmentId,
  tdc: TrustedDomainConfigId,
}

/** Any id Schema above. */
export type IdSchema = (typeof idSchemas)[Ids.IdPrefix]

/**
 * A request-body field holding an id of `schema`'s kind: text (a wrong type reads "must be a
 * string"), branded once decoded. Unknown ids are the service's to refuse, as not found.
 *
 * @example
 * const QuoteFields = Schema.Struct({ from_profile_id: idText(PaymentProfileId) })
 */
export const idText = <S extends IdSchema>(schema: S): Schema.Schema<S["Type"], string> =>
  Text.pipe(Schema.compose(schema as Schema.Schema<S["Type"], string>))
