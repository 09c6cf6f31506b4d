import { createHash } from "node:crypto"
import type { AppContext, AppMiddleware } from "../app-state.ts"
import { httpErrors } from "../http-error.ts"
import { clientAddressKey } from "../rate-limits/client-address.ts"
import type { RateLimitName } from "../rate-limits/rate-limit-settings.ts"
import type { RateLimiting, RateLimitOutcome } from "../rate-limits/rate-limiting.ts"

/** Which key of a request a limit counts under; undefined when the request has none. */
export type RateLimitKey = (ctx: AppContext) => string | undefined

/** The caller's API key and workspace, from the bearer token (`-` for a token without a key). */
export const apiKeyOfCaller: RateLimitKey = (ctx) => {
  const actor = ctx.state.actor
  return actor === undefined ? undefined : `${actor.workspaceId}:${actor.keyId ?? "-"}`
}

/** The client address Koa reports (`ctx.ip`, which honours `X-Forwarded-For` only behind trusted proxies). */
export const clientAddress: RateLimitKey = (ctx) => (ctx.ip === "" ? undefined : clientAddressKey(ctx.ip))

/**
 * The `api_key` of a parsed sessions body, hashed so any length of text makes a short key.
 * Bodies without a text `api_key` are refused by the route anyway and count only per address.
 */
export const apiKeyOfBody: RateLimitKey = (ctx) => {
  const body = ctx.state.body
  const key = typeof body === "object" && body !== null ? (body as { api_key?: unknown }).api_key : undefined
  return typeof key === "string" ? createHash("sha256").update(key).digest("base64url") : undefined
}

const report = (ctx: AppContext, outcome: RateLimitOutcome) => {
  ctx.set("X-RateLimit-Limit", String(outcome.limit))
  ctx.set("X-RateLimit-Remaining", String(outcome.remaining))
  ctx.set("X-RateLimit-Reset", String(outcome.resetAt))
}

/**
 * Counts the request against the limit `name` under the key `keyOf` finds, and writes the
 * `X-RateLimit-*` headers; over the limit it answers 429 `base` / `Rate limit exceeded. Please
 * try again later.` with `Retry-After`. When a route counts against two limits (sessions), the
 * headers tell of the one with fewer requests left, or of the one that refused.
 *
 * @example
 * chain.push(rateLimit(limiting, "quotes", apiKeyOfCaller))
 */
export const rateLimit =
  (limiting: RateLimiting, name: RateLimitName, keyOf: RateLimitKey): AppMiddleware =>
  async (ctx, next) => {
    const key = keyOf(ctx)
    if (key === undefined) return next()
    const outcome = await limiting.consume(name, key)
    const refused = outcome.retryAfterSeconds !== undefined
    const earlier = ctx.state.rateLimit
    if (refused || earlier === undefined || outcome.remaining < earlier.remaining) {
      ctx.state.rateLimit = outcome
      report(ctx, outcome)
    }
    if (refused) {
      ctx.set("Retry-After", String(outcome.retryAfterSeconds))
      throw httpErrors.rateLimited()
    }
    return next()
  }
