import type { RateLimitCount, RateLimitCounter } from "@payments-engine/core"
import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible"

const countOf = (result: RateLimiterRes, allowed: boolean): RateLimitCount => ({
  allowed,
  remaining: allowed ? Math.max(result.remainingPoints, 0) : 0,
  msBeforeReset: Math.max(result.msBeforeNext, 0),
})

/**
 * The port's counter over one of rate-limiter-flexible's limiters (its fixed windows), whichever
 * store holds the limiter's counts. The library refuses a request by rejecting with a
 * `RateLimiterRes`; the port answers `allowed: false` instead and rejects only when the store fails.
 *
 * @example
 * import { RateLimiterMemory } from "rate-limiter-flexible"
 * const counter = flexibleRateLimitCounter(new RateLimiterMemory({ points: 10, duration: 60 }))
 */
export const flexibleRateLimitCounter = (limiter: RateLimiterAbstract): RateLimitCounter => ({
  consume: async (key) => {
    try {
      return countOf(await limiter.consume(key), true)
    } catch (error) {
      if (error instanceof RateLimiterRes) return countOf(error, false)
      throw error
    }
  },
  giveBack: async (key) => {
    await limiter.reward(key, 1)
  },
  forget: async (key) => {
    await limiter.delete(key)
  },
})
