import type { RateLimitCount, RateLimitCounter, RateLimitStore } from "@payments-engine/core"
import { type RateLimitName, type RateLimitSettings, rateLimitWindowSeconds } from "./rate-limit-settings.ts"

/** One request counted against one limit: what the `X-RateLimit-*` headers say. */
export interface RateLimitOutcome {
  /** The limit's requests per window: `X-RateLimit-Limit`. */
  readonly limit: number
  /** Requests left in this window: `X-RateLimit-Remaining`. */
  readonly remaining: number
  /** When the window ends, in Unix seconds: `X-RateLimit-Reset`. */
  readonly resetAt: number
  /** Set when the request is refused: whole seconds to wait, `Retry-After`. */
  readonly retryAfterSeconds?: number
}

/** Counts requests against the limits. */
export interface RateLimiting {
  /** Counts one request of `key` against the limit `name`. Rejects only when the store fails. */
  consume(name: RateLimitName, key: string): Promise<RateLimitOutcome>
  /** Gives back one request counted for `key` against the limit `name` (one that should not count). */
  giveBack(name: RateLimitName, key: string): Promise<void>
  /** Forgets what `key` spent of the limit `name` (a sign-in that succeeded ends a run of failures). */
  forget(name: RateLimitName, key: string): Promise<void>
}

const outcomeOf = (limit: number, count: RateLimitCount): RateLimitOutcome => {
  const resetAt = Math.ceil((Date.now() + count.msBeforeReset) / 1000)
  return count.allowed
    ? { limit, remaining: count.remaining, resetAt }
    : { limit, remaining: 0, resetAt, retryAfterSeconds: Math.max(1, Math.ceil(count.msBeforeReset / 1000)) }
}

/**
 * The limits of `settings`, counted in `store`, each in fixed windows of
 * {@link rateLimitWindowSeconds}.
 *
 * @example
 * const limiting = rateLimiting(memoryRateLimitStore(), rateLimitSettings())
 * const outcome = await limiting.consume("quotes", "ws_1:key_1") // { limit: 300, remaining: 299, resetAt }
 */
export const rateLimiting = (store: RateLimitStore, settings: RateLimitSettings): RateLimiting => {
  const counters = new Map<RateLimitName, RateLimitCounter>()
  for (const name of Object.keys(settings) as Array<RateLimitName>) {
    counters.set(name, store.counter({ name, points: settings[name], windowSeconds: rateLimitWindowSeconds }))
  }
  const counterOf = (name: RateLimitName) => {
    const counter = counters.get(name)
    if (counter === undefined) throw new Error(`rateLimiting: no limit named ${name}`)
    return counter
  }
  return {
    consume: async (name, key) => outcomeOf(settings[name], await counterOf(name).consume(key)),
    giveBack: async (name, key) => counterOf(name).giveBack(key),
    forget: async (name, key) => counterOf(name).forget(key),
  }
}
