import type { Actor, AuthenticatedKey, Clock, Session, TokenClaims } from "@payments-engine/core"
import { ApiKeyId, WorkspaceId } from "@payments-engine/core"
import { hs256Jwt } from "./hs256-jwt.ts"
import { answerCache } from "./key-state-cache.ts"

/** Issuer (`iss`) of the bearer tokens. */
export const tokenIssuer = "payments-engine"
/** Audience (`aud`) of the bearer tokens, so another token signed with the same secret is refused. */
export const tokenAudience = "payments-engine/api"
/** Default lifetime of a bearer token: one hour. */
export const defaultTokenLifetimeSeconds = 3600
/** Default time one process trusts a key's state (revoked or not) before reading it again. */
export const defaultKeyCacheSeconds = 30
/** The longest that trust may last: a revoked key's tokens stop working within a minute. */
export const longestKeyCacheSeconds = 60

/** Options of {@link bearerTokens}. */
export interface BearerTokenOptions {
  /** The HS256 secret. At least 32 characters. */
  readonly secret: string
  /** Lifetime in seconds; {@link defaultTokenLifetimeSeconds} by default. */
  readonly lifetimeSeconds?: number
  /** Source of time for `iat`/`exp`, the expiry check and the key cache; the system clock by default. */
  readonly clock?: Clock
  /**
   * The actor a token's claims stand for while its API key exists, is not revoked and belongs to
   * the token's workspace; undefined otherwise. The engine's `access.tokenActor`.
   */
  readonly confirm: (claims: TokenClaims) => Promise<Actor | undefined>
  /**
   * Seconds one process reuses an answer of `confirm`, from 0 (ask every time) to
   * {@link longestKeyCacheSeconds}; {@link defaultKeyCacheSeconds} by default.
   */
  readonly keyCacheSeconds?: number
  /**
   * The time of a workspace's test clock (sandbox mode), read from storage: tokens are then
   * issued and expire by their workspace's time, which is never behind `clock`.
   */
  readonly workspaceNow?: (workspaceId: WorkspaceId) => Promise<Date>
}

/** Issues and checks the bearer tokens of the API. */
export interface BearerTokens {
  /**
   * A token for an authenticated key, as `POST /api/v1/sessions` answers it. It expires after the
   * lifetime, or at the key's `endsBy` when that comes first (a rotated key's previous secret).
   */
  issue(key: AuthenticatedKey): Promise<Session>
  /**
   * The actor of a valid token; undefined for an expired, tampered, malformed or foreign one, or
   * one whose key is unknown, revoked or of another workspace.
   */
  verify(token: string): Promise<Actor | undefined>
}

const longestToken = 4096

/** How far in the future an `iat` may be, for processes whose clocks differ by a little. */
const issuedAtLeewaySeconds = 5

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

const claimsOf = (
  payload: Readonly<Record<string, unknown>>,
  lifetime: number,
  now: number,
): TokenClaims | undefined => {
  const { workspace_id: workspaceId, sub: keyId, scope, iat, exp } = payload
  if (typeof workspaceId !== "string" || workspaceId === "") return undefined
  if (typeof keyId !== "string" || keyId === "") return undefined
  if (scope !== "read" && scope !== "write") return undefined
  // The signature's check has found both numbers, or absent, and exp still ahead.
  if (typeof iat !== "number" || typeof exp !== "number") return undefined
  if (exp - iat > lifetime || iat > now + issuedAtLeewaySeconds) return undefined
  return { workspaceId: WorkspaceId.make(workspaceId), keyId: ApiKeyId.make(keyId), scope }
}

/**
 * Bearer tokens as JWTs signed with HS256 ({@link hs256Jwt}, on `node:crypto`): claims `workspace_id`, `scope` and `sub` (the
 * API key's id), plus `iss`, `aud`, `iat` and `exp`. Verification accepts HS256 only, checks every
 * claim, refuses an `exp` more than the lifetime after `iat`, and asks `confirm` whether the key
 * still stands (each answer reused for `keyCacheSeconds`). The HMAC key is made once. With
 * `workspaceNow`, `iat` and `exp` are by the workspace's test clock.
 *
 * @example
 * declare const api_key: string, api_secret: string
 * const tokens = bearerTokens({ secret, confirm: (claims) => engine.access.tokenActor(claims) })
 * const session = await tokens.issue(await engine.access.authenticate({ api_key, api_secret }))
 * await tokens.verify(session.access_token) // { workspaceId: "ws_1", scope: "write", keyId: "key_1" }
 */
export const bearerTokens = (options: BearerTokenOptions): BearerTokens => {
  const lifetime = options.lifetimeSeconds ?? defaultTokenLifetimeSeconds
  if (!Number.isSafeInteger(lifetime) || lifetime < 1) {
    throw new RangeError(`bearerTokens: lifetimeSeconds must be a positive integer, got ${lifetime}`)
  }
  const cacheSeconds = options.keyCacheSeconds ?? defaultKeyCacheSeconds
  if (!Number.isSafeInteger(cacheSeconds) || cacheSeconds < 0 || cacheSeconds > longestKeyCacheSeconds) {
    throw new RangeError(
      `bearerTokens: keyCacheSeconds must be from 0 to ${longestKeyCacheSeconds}, got ${cacheSeconds}`,
    )
  }
  if (options.secret.length < 32) throw new RangeError("bearerTokens: the secret must be at least 32 characters")
  const jwt = hs256Jwt(options.secret)
  const now = () => options.clock?.now() ?? new Date()
  const confirmed = answerCache<Actor | undefined>({
    ttlSeconds: cacheSeconds,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  })
  const { workspaceNow } = options
  const nowOf = async (workspaceId: WorkspaceId) => (workspaceNow === undefined ? now() : workspaceNow(workspaceId))
  return {
    async issue(authenticated) {
      const issuedAt = seconds(await nowOf(authenticated.workspaceId))
      const endsBy = authenticated.endsBy === null ? undefined : seconds(new Date(authenticated.endsBy))
      const expiresAt = Math.min(issuedAt + lifetime, endsBy ?? Number.POSITIVE_INFINITY)
      // The claims in the order jose's SignJWT wrote them, so tokens are the same bytes as before.
      const access_token = jwt.sign({
        workspace_id: authenticated.workspaceId,
        scope: authenticated.scope,
        iss: tokenIssuer,
        aud: tokenAudience,
        sub: authenticated.keyId,
        iat: issuedAt,
        exp: expiresAt,
      })
      return {
        access_token,
        token_type: "Bearer",
        expires_at: new Date(expiresAt * 1000).toISOString(),
        expires_in: expiresAt - issuedAt,
      }
    },
    async verify(token) {
      if (token.length === 0 || token.length > longestToken) return undefined
      const at = now()
      const payload = jwt.verify(token, {
        issuer: tokenIssuer,
        audience: tokenAudience,
        nowSeconds: seconds(at),
        requiredClaims: ["iat", "exp", "sub"],
      })
      if (payload === undefined) return undefined
      // The expiry is checked by `clock` above, which no workspace's test clock is behind; then by
      // the workspace's own time, read only for a token whose signature holds.
      const claimed = payload.workspace_id
      const workspaceAt =
        workspaceNow === undefined || typeof claimed !== "string" || claimed === ""
          ? seconds(at)
          : seconds(await workspaceNow(WorkspaceId.make(claimed)))
      if (typeof payload.exp === "number" && payload.exp <= workspaceAt) return undefined
      const claims = claimsOf(payload, lifetime, workspaceAt)
      if (claims === undefined) return undefined
      const { workspaceId, keyId, scope } = claims
      // Only tokens we signed get here, so the cache holds about one entry per key in use. A
      // failing lookup (database down) is not a bad token: it rejects, and the request fails.
      return confirmed([workspaceId, keyId, scope].join("\u0000"), () => options.confirm({ workspaceId, keyId, scope }))
    },
  }
}
