import type { FeatureIdentifier } from "./feature.ts"
import type { ApplicationId, EntityId, RecipientId, WorkspaceId } from "./ids.ts"

// The types of `model/hosted-page-token.ts`, written out (docs/decisions.md, "Public types").

/** Purposes of the tokens issued under an entity: a recipient's bank account, or a feature application. */
export const recipientTokenPurposes = ["recipient_add_bank_account"] as const
/** Purposes of the feature tokens: onboarding a CREATED application, answering an ACTION_REQUIRED one. */
export const featureTokenPurposes = ["onboarding", "pending_action"] as const
/** Purposes of `POST /api/v1/hosted_page_tokens`. */
export const fundingTokenPurposes = ["funding_accounts"] as const
/** Every purpose a hosted-page token can have (spec "Authentication" 4). */
export const hostedPagePurposes = [...recipientTokenPurposes, ...featureTokenPurposes, ...fundingTokenPurposes] as const
export type HostedPagePurpose = (typeof hostedPagePurposes)[number]
export type FeatureTokenPurpose = (typeof featureTokenPurposes)[number]

/** Body of the entity route for a recipient's bank account page. */
export interface RecipientTokenRequest {
  readonly purpose: "recipient_add_bank_account"
  /** A live recipient of the path's company. */
  readonly recipient_id: RecipientId
  readonly return_url?: string
}

/** Body of the entity route for a feature application's onboarding or pending action. */
export interface FeatureTokenRequest {
  readonly feature_identifier: FeatureIdentifier
  readonly purpose: FeatureTokenPurpose
  /** Any text: an id of no application of this workspace, whatever its shape, is `not_found` on `application_id`. */
  readonly application_id: ApplicationId
  readonly return_url?: string
}

/** Body of an entity's hosted-page token request, as an embedder writes it (the schema's encoded type: what it decodes from). */
export type EntityHostedPageTokenBody =
  | {
      readonly purpose: "recipient_add_bank_account"
      readonly recipient_id: string
      readonly return_url?: string
    }
  | {
      readonly feature_identifier: FeatureIdentifier
      readonly application_id: string
      readonly purpose: FeatureTokenPurpose
      readonly return_url?: string
    }

/** Body of `POST /api/v1/hosted_page_tokens`. */
export interface FundingTokenRequest {
  /** An entity of a company of the caller's workspace, with a multi-currency account. */
  readonly entity_id: EntityId
  readonly purpose: "funding_accounts"
  readonly return_url?: string
}

/** Body of `POST /api/v1/hosted_page_tokens`, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface FundingTokenBody {
  readonly entity_id: string
  readonly purpose: "funding_accounts"
  readonly return_url?: string
}

/** The token object (spec "Hosted-page token object"). */
export interface HostedPageToken {
  /** JWT (HS256), valid 2 hours; passed to the page as `?token=`. */
  readonly token: string
  readonly purpose: HostedPagePurpose
  readonly recipient_id?: RecipientId
  readonly feature_identifier?: FeatureIdentifier
  readonly application_id?: ApplicationId
  /** Present only when given and trusted by the workspace's configuration. */
  readonly return_url?: string
}

/** A used-up hosted-page token: the type of `StoredUsedHostedPageToken`. */
export interface UsedHostedPageTokenRecord {
  readonly token_id: string
  readonly workspace_id: WorkspaceId
  readonly used_at: string
  readonly expires_at: string
}

/** What a hosted-page token grants: one purpose, over one workspace's resources. */
export interface HostedPageScope {
  readonly purpose: HostedPagePurpose
  readonly workspaceId: string
  readonly companyId: string
  readonly entityId: string
  /** The recipient of a `recipient_add_bank_account` token. */
  readonly recipientId?: string
  /** The application of an `onboarding` or `pending_action` token, and its feature. */
  readonly applicationId?: string
  readonly featureIdentifier?: string
  /** Where the page sends the person when done: present only when trusted when issued. */
  readonly returnUrl?: string
}

/** A token's scope, with its id (`jti`) and its times. */
export interface HostedPageClaims extends HostedPageScope {
  readonly tokenId: string
  readonly issuedAt: Date
  readonly expiresAt: Date
}

/** Why a token is refused: past `exp`; not one of ours (tampered, malformed, an API token, another key); or for another page. */
export type HostedPageRefusal = "expired" | "invalid" | "wrong_purpose"

/** What `verify` answers: the token's claims, or why it is refused (`used`: its task is already done). */
export type HostedPageVerification =
  | { readonly valid: true; readonly claims: HostedPageClaims }
  | { readonly valid: false; readonly reason: HostedPageRefusal | "used" }

/** Options of `verify`. */
export interface HostedPageVerifyOptions {
  /** The purposes the page serves; a token of another is refused as `wrong_purpose`. Any purpose when absent. */
  readonly purposes?: ReadonlyArray<HostedPagePurpose>
  /** Accept a token whose task is done (the page that says so); refused as `used` otherwise. */
  readonly acceptUsed?: boolean
}

/** Options of `submit`. */
export interface SubmitOptions {
  /**
   * The hosted-page token the person submits with: used up in the submission's transaction
   * (`unauthenticated` on `token`, nothing changed, when it already was).
   */
  readonly usingToken?: HostedPageClaims
}
