import { Schema } from "effect"
import { featureIdentifiers, featureMessages } from "./feature.ts"
import { required, Timestamp } from "./fields.ts"
import { ApplicationId, EntityId, RecipientId, WorkspaceId } from "./ids.ts"
import type * as Types from "./types/hosted-page-token.ts"
import {
  featureTokenPurposes,
  fundingTokenPurposes,
  hostedPagePurposes,
  recipientTokenPurposes,
} from "./types/hosted-page-token.ts"

export * from "./types/hosted-page-token.ts"

/** The feature status each feature purpose requires (spec "Token purpose rules"). */
export const requiredFeatureStatus = { onboarding: "CREATED", pending_action: "ACTION_REQUIRED" } as const

/** The longest `return_url` accepted (the common browser limit); longer is `invalid` on `return_url`. */
export const maxReturnUrlLength = 2048

/** The spec's messages for hosted-page tokens, and ours where it shows none (docs/decisions.md). */
export const hostedPageTokenMessages = {
  purposeRequired: "Purpose is required",
  purposeInvalid: "Invalid purpose",
  /** Ours: a funding purpose sent to the entity route (the spec's `missing`, message not shown). */
  fundingPurposeOnEntityRoute: (purpose: string) =>
    `Invalid purpose: ${purpose} tokens are issued by POST /api/v1/hosted_page_tokens`,
  /** Ours: a recipient or feature purpose sent to the funding route (the spec's `forbidden`, message not shown). */
  entityPurposeOnFundingRoute: (purpose: string) =>
    `Purpose ${purpose} is not allowed here: issue it with POST /api/v1/companies/{cid}/entities/{eid}/hosted_page_tokens`,
  statusMismatch: (required: string, status: string) =>
    `Cannot create token. Application status must be ${required}, current status is ${status}`,
  applicationRequired: "Application ID is required",
  applicationNotFound: featureMessages.applicationNotFound,
  applicationWrongType: "Invalid application type for this feature",
  applicationOfAnotherEntity: "Application does not belong to this entity",
  recipientRequired: "Recipient ID is required",
  recipientNotOfCompany: "Recipient does not belong to this company",
  entityRequired: "Entity ID is required",
  /** Ours: an entity that is not of a company of the caller's workspace (the spec's `invalid`, message not shown). */
  entityNotOfWorkspace: "Entity does not belong to a company of this workspace",
  multiCurrencyAccountMissing: "Multi-currency account not found for this entity. Please create an account first.",
  notAString: "must be a string",
  returnUrlTooLong: `is too long (maximum is ${maxReturnUrlLength} characters)`,
  /** Ours: a token whose task is already done, used again (`unauthenticated` on `token`). */
  tokenUsedUp: "This link was already used",
} as const

/** The optional `return_url` of every token request: a string of bounded length, checked against trusted domains later. */
const ReturnUrl = Schema.String.annotations({
  message: () => ({ message: hostedPageTokenMessages.notAString, override: true }),
}).pipe(Schema.maxLength(maxReturnUrlLength, { message: () => hostedPageTokenMessages.returnUrlTooLong }))

/**
 * An id field read as bounded text; an id of no resource (or not of this shape) is the service's
 * to refuse with the rule's own message.
 */
const idField = <A>(schema: Schema.Schema<A, string, never>, message: string) =>
  Schema.String.pipe(
    Schema.minLength(1, { message: () => ({ message, override: true }) }),
    Schema.maxLength(128, { message: () => ({ message, override: true }) }),
    Schema.compose(schema),
  ).annotations({ message: () => ({ message, override: true }) })

const recipientTokenRequestFields = {
  purpose: Schema.Literal(...recipientTokenPurposes),
  recipient_id: required(
    idField(RecipientId, hostedPageTokenMessages.recipientNotOfCompany).annotations({
      description: "a live recipient of the path's company",
    }),
    hostedPageTokenMessages.recipientRequired,
  ),
  return_url: Schema.optional(ReturnUrl),
}

/** The Schema of {@link RecipientTokenRequest}, named so that declarations refer to it instead of copying it. */
export interface RecipientTokenRequestSchema extends Schema.Struct<typeof recipientTokenRequestFields> {}
/** Body of the entity route for a recipient's bank account page. */
export const RecipientTokenRequest: RecipientTokenRequestSchema = Schema.Struct(
  recipientTokenRequestFields,
).annotations({ identifier: "RecipientTokenRequest" })
export type RecipientTokenRequest = Types.RecipientTokenRequest

const featureTokenRequestFields = {
  feature_identifier: required(
    Schema.Literal(...featureIdentifiers).annotations({
      message: () => ({ message: featureMessages.identifierInvalid, override: true }),
    }),
    featureMessages.identifierRequired,
  ),
  purpose: Schema.Literal(...featureTokenPurposes),
  /** Any text: an id of no application of this workspace, whatever its shape, is `not_found` on `application_id`. */
  application_id: required(
    Schema.String.annotations({
      message: () => ({ message: hostedPageTokenMessages.notAString, override: true }),
    })
      .pipe(Schema.compose(ApplicationId))
      .annotations({ description: "the entity's multi-currency application (`application_id` of its Feature)" }),
    hostedPageTokenMessages.applicationRequired,
  ),
  return_url: Schema.optional(ReturnUrl),
}

/** The Schema of {@link FeatureTokenRequest}, named so that declarations refer to it instead of copying it. */
export interface FeatureTokenRequestSchema extends Schema.Struct<typeof featureTokenRequestFields> {}
/** Body of the entity route for a feature application's onboarding or pending action. */
export const FeatureTokenRequest: FeatureTokenRequestSchema = Schema.Struct(featureTokenRequestFields).annotations({
  identifier: "FeatureTokenRequest",
})
export type FeatureTokenRequest = Types.FeatureTokenRequest

/** Body of `POST /api/v1/companies/{cid}/entities/{eid}/hosted_page_tokens`: one of the two forms, told apart by `purpose`. */
export const EntityHostedPageTokenRequest = Schema.Union(RecipientTokenRequest, FeatureTokenRequest).annotations({
  identifier: "EntityHostedPageTokenRequest",
})

const fundingTokenRequestFields = {
  entity_id: required(
    idField(EntityId, hostedPageTokenMessages.entityNotOfWorkspace).annotations({
      description: "an entity of a company of the caller's workspace, with a multi-currency account",
    }),
    hostedPageTokenMessages.entityRequired,
  ),
  purpose: Schema.Literal(...fundingTokenPurposes),
  return_url: Schema.optional(ReturnUrl),
}

/** The Schema of {@link FundingTokenRequest}, named so that declarations refer to it instead of copying it. */
export interface FundingTokenRequestSchema extends Schema.Struct<typeof fundingTokenRequestFields> {}
/** Body of `POST /api/v1/hosted_page_tokens`. */
export const FundingTokenRequest: FundingTokenRequestSchema = Schema.Struct(fundingTokenRequestFields).annotations({
  identifier: "FundingTokenRequest",
})
export type FundingTokenRequest = Types.FundingTokenRequest

const hostedPageTokenFields = {
  token: Schema.String.annotations({ description: "JWT (HS256), valid 2 hours; passed to the page as `?token=`" }),
  purpose: Schema.Literal(...hostedPagePurposes),
  recipient_id: Schema.optional(RecipientId),
  feature_identifier: Schema.optional(Schema.Literal(...featureIdentifiers)),
  application_id: Schema.optional(ApplicationId),
  return_url: Schema.optional(
    Schema.String.annotations({ description: "present only when given and trusted by the workspace's configuration" }),
  ),
}

/** The Schema of {@link HostedPageToken}, named so that declarations refer to it instead of copying it. */
export interface HostedPageTokenSchema extends Schema.Struct<typeof hostedPageTokenFields> {}
/** The token object (spec "Hosted-page token object"). */
export const HostedPageToken: HostedPageTokenSchema = Schema.Struct(hostedPageTokenFields).annotations({
  identifier: "HostedPageToken",
})
export type HostedPageToken = Types.HostedPageToken

const storedUsedHostedPageTokenFields = {
  token_id: Schema.String,
  workspace_id: WorkspaceId,
  used_at: Timestamp,
  expires_at: Timestamp,
}

/** The Schema of {@link StoredUsedHostedPageToken}, named so that declarations refer to it instead of copying it. */
export interface StoredUsedHostedPageTokenSchema extends Schema.Struct<typeof storedUsedHostedPageTokenFields> {}
/**
 * A hosted-page token whose task is done (a bank account added, an onboarding submitted): kept
 * until it expires, so the page refuses it like an expired one. Only the token's id is stored,
 * never the token.
 */
export const StoredUsedHostedPageToken: StoredUsedHostedPageTokenSchema = Schema.Struct(storedUsedHostedPageTokenFields)
