import { createHash } from "node:crypto"
import { isDomainError } from "@payments-engine/core"
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
 * The `api_key` of a parsed sessions body (hashed, so any length of text makes a short key) and
 * the client address: failed sign-ins count under both, so a stranger's wrong secrets spend only
 * the stranger's own attempts, never the key owner's. Bodies without a text `api_key` are refused
 * by the route anyway and count only per address.
 */
export const apiKeyAndAddressOfBody: RateLimitKey = (ctx) => {
  const body = ctx.state.body
  const key = typeof body === "object" && body !== null ? (body as { api_key?: unknown }).api_key : undefined
  if (typeof key !== "string") return undefined
  return `${createHash("sha256").update(key).digest("base64url")}@${clientAddress(ctx) ?? "-"}`
}

const report = (ctx: AppContext, outcome: RateLimitOutcome) => {
  ctx.set("X-RateLimit-Limit", String(outcome.limit))
  ctx.set("X-RateLimit-Remaining", String(outcome.remaining))
  ctx.set("X-RateLimit-Reset", String(outcome.resetAt))
}

/** Writes the headers of `outcome` when it is the limit that refused or has fewer requests left. */
const reportIfTighter = (ctx: AppContext, outcome: RateLimitOutcome) => {
  const earlier = ctx.state.rateLimit
  if (outcome.retryAfterSeconds !== undefined || earlier === undefined || outcome.remaining < earlier.remaining) {
    ctx.state.rateLimit = outcome
    report(ctx, outcome)
  }
}

/** Counts one request of `key` against `name`, reports it, and answers 429 over the limit. */
const countOrRefuse = async (ctx: AppContext, limiting: RateLimiting, name: RateLimitName, key: string) => {
  const outcome = await limiting.consume(name, key)
  reportIfTighter(ctx, outcome)
  if (outcome.retryAfterSeconds !== undefined) {
    ctx.set("Retry-After", String(outcome.retryAfterSeconds))
    throw httpErrors.rateLimited()
  }
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
    await countOrRefuse(ctx, limiting, name, key)
    return next()
  }

/**
 * Like {@link rateLimit}, but keeps only the requests the engine refuses as unauthenticated
 * (failed sign-ins, rate-limiter-flexible's "login endpoint protection"). Every request is counted
 * as it arrives, so attempts sent all at once cannot slip past the limit; one that succeeds
 * forgets the failures before it, and one refused for another reason (a field missing) is given
 * back.
 *
 * @example
 * chain.push(failedAttemptLimit(limiting, "failedSessions", apiKeyAndAddressOfBody))
 */
export const failedAttemptLimit =
  (limiting: RateLimiting, name: RateLimitName, keyOf: RateLimitKey): AppMiddleware =>
  async (ctx, next) => {
    const key = keyOf(ctx)
    if (key === undefined) return next()
    await countOrRefuse(ctx, limiting, name, key)
    try {
      await next()
    } catch (error) {
      if (!(isDomainError(error) && error.kind === "unauthenticated")) await limiting.giveBack(name, key)
      throw error
    }
    await limiting.forget(name, key)
  }
