/**
 * Hosted-page tokens as JWTs (HS256 through `jose`, which runs on Web Crypto alone): signed with
 * a key derived from the server secret by HKDF-SHA-256 under a label of their own, so the API's
 * bearer tokens (signed with the secret itself) and these can never stand for each other, even
 * were the `typ` and `aud` checks dropped. The header's `typ` is {@link hostedPageTokenType}, the
 * audience {@link hostedPageTokenAudience}; both are checked as well. No `node:` module.
 */

import { type CryptoKey, errors as joseErrors, jwtVerify, SignJWT } from "jose"
import type { HostedPageClaims, HostedPageRefusal, HostedPageScope } from "../model/types/hosted-page-token.ts"
import { type HostedPagePurpose, hostedPagePurposes } from "../model/types/hosted-page-token.ts"
import { minimumServerSecretLength } from "./idempotency-fingerprint.ts"

export type { HostedPageClaims, HostedPageRefusal, HostedPageScope } from "../model/types/hosted-page-token.ts"

/** Issuer (`iss`) of hosted-page tokens; the same as the bearer tokens'. */
export const hostedPageTokenIssuer = "payments-engine"
/** Audience (`aud`): the hosted pages, not the API (`payments-engine/api`). */
export const hostedPageTokenAudience = "payments-engine/hosted-page"
/** The header's `typ` (RFC 8725 3.11, explicit typing). */
export const hostedPageTokenType = "hosted-page+jwt"
/** A token is valid 2 hours (spec "Authentication" 4, DECISIONS "Hosted-page token"). */
export const hostedPageTokenLifetimeSeconds = 2 * 60 * 60
/** The HKDF label of the signing key; a new version of the label makes every token issued before invalid. */
export const hostedPageKeyLabel = "payments-engine/hosted-page-token/hs256/v1"

/** The longest text read as a token; a longer one is refused before any parsing. */
const longestToken = 4096

const utf8 = (text: string) => new TextEncoder().encode(text)
const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

/**
 * The HMAC-SHA-256 key of hosted-page tokens of a server secret (at least 32 characters).
 *
 * @example
 * const key = await deriveHostedPageKey(process.env.PAYMENTS_JWT_SECRET!)
 */
export const deriveHostedPageKey = async (serverSecret: string): Promise<CryptoKey> => {
  if (serverSecret.length < minimumServerSecretLength) {
    throw new RangeError(`the server secret must be at least ${minimumServerSecretLength} characters`)
  }
  const material = await crypto.subtle.importKey("raw", utf8(serverSecret), "HKDF", false, ["deriveKey"])
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8(hostedPageKeyLabel) },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign", "verify"],
  )
}

/**
 * A signed token for `scope`, issued at `now` (the workspace's time) and valid
 * {@link hostedPageTokenLifetimeSeconds}; `tokenId` becomes its `jti`.
 *
 * @example
 * declare const key: CryptoKey, scope: HostedPageScope
 * const token = await signHostedPageToken(key, scope, "hpt_01H...", clock.now())
 */
export const signHostedPageToken = (
  key: CryptoKey,
  scope: HostedPageScope,
  tokenId: string,
  now: Date,
): Promise<string> => {
  const issuedAt = seconds(now)
  return new SignJWT({
    purpose: scope.purpose,
    workspace_id: scope.workspaceId,
    company_id: scope.companyId,
    entity_id: scope.entityId,
    ...(scope.recipientId === undefined ? {} : { recipient_id: scope.recipientId }),
    ...(scope.applicationId === undefined ? {} : { application_id: scope.applicationId }),
    ...(scope.featureIdentifier === undefined ? {} : { feature_identifier: scope.featureIdentifier }),
    ...(scope.returnUrl === undefined ? {} : { return_url: scope.returnUrl }),
  })
    .setProtectedHeader({ alg: "HS256", typ: hostedPageTokenType })
    .setIssuer(hostedPageTokenIssuer)
    .setAudience(hostedPageTokenAudience)
    .setJti(tokenId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + hostedPageTokenLifetimeSeconds)
    .sign(key)
}

const text = (value: unknown): value is string => typeof value === "string" && value.length > 0
const optionalText = (value: unknown): value is string | undefined => value === undefined || text(value)

/**
 * The claims of a token whose signature, `typ`, issuer and audience hold and whose `exp` is
 * after `now`; else why not. Expiry is judged at `now`, which the caller takes from the
 * workspace's clock (see the service), so advancing a sandbox clock expires tokens.
 *
 * @example
 * declare const key: CryptoKey, token: string
 * const checked = await verifyHostedPageToken(key, token, clock.now())
 * if (checked.valid) checked.claims.entityId
 */
export const verifyHostedPageToken = async (
  key: CryptoKey,
  token: string,
  now: Date,
): Promise<
  | { readonly valid: true; readonly claims: HostedPageClaims }
  | { readonly valid: false; readonly reason: HostedPageRefusal }
> => {
  const invalid = { valid: false, reason: "invalid" } as const
  if (token.length === 0 || token.length > longestToken) return invalid
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      typ: hostedPageTokenType,
      issuer: hostedPageTokenIssuer,
      audience: hostedPageTokenAudience,
      currentDate: now,
      clockTolerance: 0,
      requiredClaims: ["iat", "exp", "jti"],
    }))
  } catch (error) {
    // jose checks the signature before the claims, so an expired token here is one of ours.
    return error instanceof joseErrors.JWTExpired ? { valid: false, reason: "expired" } : invalid
  }
  const { purpose, workspace_id, company_id, entity_id, recipient_id, application_id, feature_identifier } = payload
  const { return_url, jti, iat, exp } = payload
  if (typeof iat !== "number" || typeof exp !== "number" || exp - iat > hostedPageTokenLifetimeSeconds) return invalid
  if (exp <= seconds(now)) return { valid: false, reason: "expired" }
  if (!hostedPagePurposes.some((known) => known === purpose)) return invalid
  if (!text(workspace_id) || !text(company_id) || !text(entity_id) || !text(jti)) return invalid
  if (!optionalText(recipient_id) || !optionalText(application_id) || !optionalText(feature_identifier)) return invalid
  if (!optionalText(return_url)) return invalid
  return {
    valid: true,
    claims: {
      purpose: purpose as HostedPagePurpose,
      workspaceId: workspace_id,
      companyId: company_id,
      entityId: entity_id,
      ...(recipient_id === undefined ? {} : { recipientId: recipient_id }),
      ...(application_id === undefined ? {} : { applicationId: application_id }),
      ...(feature_identifier === undefined ? {} : { featureIdentifier: feature_identifier }),
      ...(return_url === undefined ? {} : { returnUrl: return_url }),
      tokenId: jti,
      issuedAt: new Date(iat * 1000),
      expiresAt: new Date(exp * 1000),
    },
  }
}
