import type { RateLimitStore } from "@payments-engine/core"
import { RateLimiterMemory } from "rate-limiter-flexible"
import { flexibleRateLimitCounter } from "./flexible-rate-limit-counter.ts"

/**
 * Counters in this process's memory (rate-limiter-flexible's RateLimiterMemory): right for one
 * process (the embedded SQLite service), wrong for several processes behind one address, where
 * each would allow the whole limit.
 *
 * @example
 * const app = createApp({ engine, tokens, rateLimits: { store: memoryRateLimitStore() } })
 */
export const memoryRateLimitStore = (): RateLimitStore => ({
  counter: ({ name, points, windowSeconds }) =>
    flexibleRateLimitCounter(new RateLimiterMemory({ keyPrefix: name, points, duration: windowSeconds })),
  close: async () => undefined,
})
