import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible"
import type { RateLimitName, RateLimitSettings } from "./rate-limit-settings.ts"
import type { RateLimitStore } from "./rate-limit-store.ts"

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

const outcomeOf = (limit: number, result: RateLimiterRes, refused: boolean): RateLimitOutcome => {
  const msLeft = Math.max(result.msBeforeNext, 0)
  const resetAt = Math.ceil((Date.now() + msLeft) / 1000)
  return refused
    ? { limit, remaining: 0, resetAt, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) }
    : { limit, remaining: Math.max(result.remainingPoints, 0), resetAt }
}

/**
 * The limits of `settings`, counted in `store` (rate-limiter-flexible's fixed windows).
 *
 * @example
 * const limiting = rateLimiting(memoryRateLimitStore(), rateLimitSettings())
 * const outcome = await limiting.consume("quotes", "ws_1:key_1") // { limit: 300, remaining: 299, resetAt }
 */
export const rateLimiting = (store: RateLimitStore, settings: RateLimitSettings): RateLimiting => {
  const limiters = new Map<RateLimitName, RateLimiterAbstract>()
  for (const name of Object.keys(settings) as Array<RateLimitName>) {
    limiters.set(name, store.limiter(name, settings[name]))
  }
  const limiterOf = (name: RateLimitName) => {
    const limiter = limiters.get(name)
    if (limiter === undefined) throw new Error(`rateLimiting: no limit named ${name}`)
    return limiter
  }
  return {
    consume: async (name, key) => {
      try {
        return outcomeOf(settings[name], await limiterOf(name).consume(key), false)
      } catch (error) {
        if (error instanceof RateLimiterRes) return outcomeOf(settings[name], error, true)
        throw error
      }
    },
    giveBack: async (name, key) => {
      await limiterOf(name).reward(key, 1)
    },
    forget: async (name, key) => {
      await limiterOf(name).delete(key)
    },
  }
}
