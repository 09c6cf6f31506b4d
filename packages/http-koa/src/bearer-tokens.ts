import type { Actor, Clock, Session } from "@payments-engine/core"
import { jwtVerify, SignJWT } from "jose"

/** Issuer (`iss`) of the bearer tokens. */
export const tokenIssuer = "payments-engine"
/** Audience (`aud`) of the bearer tokens, so another token signed with the same secret is refused. */
export const tokenAudience = "payments-engine/api"
/** Default lifetime of a bearer token: one hour. */
export const defaultTokenLifetimeSeconds = 3600

/** Options of {@link bearerTokens}. */
export interface BearerTokenOptions {
  /** The HS256 secret. At least 32 characters. */
  readonly secret: string
  /** Lifetime in seconds; {@link defaultTokenLifetimeSeconds} by default. */
  readonly lifetimeSeconds?: number
  /** Source of time for `iat`/`exp` and for the expiry check; the system clock by default. */
  readonly clock?: Clock
  /**
   * The time of a workspace's test clock (sandbox mode), read from storage: tokens are then
   * issued and expire by their workspace's time, which is never behind `clock`.
   */
  readonly workspaceNow?: (workspaceId: string) => Promise<Date>
}

/** Issues and checks the bearer tokens of the API. */
export interface BearerTokens {
  /** A token for the actor, as `POST /api/v1/sessions` answers it. */
  issue(actor: Actor): Promise<Session>
  /** The actor of a valid token; undefined for an expired, tampered, malformed or foreign one. */
  verify(token: string): Promise<Actor | undefined>
}

const longestToken = 4096

/**
 * Bearer tokens as JWTs signed with HS256 (jose): claims `workspace_id` and `scope`, plus `iss`,
 * `aud`, `iat` and `exp`. Verification accepts HS256 only and checks every claim; with
 * `workspaceNow`, `iat` and `exp` are by the workspace's test clock.
 *
 * @example
 * const tokens = bearerTokens({ secret: process.env.PAYMENTS_JWT_SECRET! })
 * const session = await tokens.issue({ workspaceId: "ws_1", scope: "write" })
 * await tokens.verify(session.access_token) // { workspaceId: "ws_1", scope: "write" }
 */
export const bearerTokens = (options: BearerTokenOptions): BearerTokens => {
  const lifetime = options.lifetimeSeconds ?? defaultTokenLifetimeSeconds
  if (!Number.isSafeInteger(lifetime) || lifetime < 1) {
    throw new RangeError(`bearerTokens: lifetimeSeconds must be a positive integer, got ${lifetime}`)
  }
  if (options.secret.length < 32) throw new RangeError("bearerTokens: the secret must be at least 32 characters")
  const key = new TextEncoder().encode(options.secret)
  const now = () => options.clock?.now() ?? new Date()
  const { workspaceNow } = options
  const nowOf = (workspaceId: string) => (workspaceNow === undefined ? now() : workspaceNow(workspaceId))
  return {
    async issue(actor) {
      const issuedAt = Math.floor((await nowOf(actor.workspaceId)).getTime() / 1000)
      const expiresAt = issuedAt + lifetime
      const access_token = await new SignJWT({ workspace_id: actor.workspaceId, scope: actor.scope })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(tokenIssuer)
        .setAudience(tokenAudience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key)
      return {
        access_token,
        token_type: "Bearer",
        expires_at: new Date(expiresAt * 1000).toISOString(),
        expires_in: lifetime,
      }
    },
    async verify(token) {
      if (token.length === 0 || token.length > longestToken) return undefined
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ["HS256"],
          issuer: tokenIssuer,
          audience: tokenAudience,
          currentDate: now(),
          requiredClaims: ["iat", "exp"],
        })
        const { workspace_id: workspaceId, scope, exp } = payload
        if (typeof workspaceId !== "string" || workspaceId === "") return undefined
        if (scope !== "read" && scope !== "write") return undefined
        // Checked by `clock` above, which no workspace's clock is behind; then by the workspace's
        // own time, read only for a token whose signature holds.
        if (workspaceNow !== undefined && exp! <= Math.floor((await workspaceNow(workspaceId)).getTime() / 1000)) {
          return undefined
        }
        return { workspaceId, scope }
      } catch {
        return undefined
      }
    },
  }
}
