import { type RateLimiterAbstract, RateLimiterMemory } from "rate-limiter-flexible"
import { rateLimitWindowSeconds } from "./rate-limit-settings.ts"

/**
 * Where the counters of the rate limits live: in the process ({@link memoryRateLimitStore}), or
 * in a database several processes share (`openPostgresRateLimitStore` of
 * `@payments-engine/http-koa/postgres`), so that a limit holds across them.
 */
export interface RateLimitStore {
  /** A limiter of `points` requests per window ({@link rateLimitWindowSeconds}), its keys prefixed by `name`. */
  limiter(name: string, points: number): RateLimiterAbstract
  /** Releases the store's connections; the limiters must not be used afterwards. */
  close(): Promise<void>
}

/**
 * Counters in this process's memory: right for one process (the embedded SQLite service), wrong
 * for several processes behind one address, where each would allow the whole limit.
 *
 * @example
 * const app = createApp({ engine, tokens, rateLimits: { store: memoryRateLimitStore() } })
 */
export const memoryRateLimitStore = (): RateLimitStore => ({
  limiter: (name, points) => new RateLimiterMemory({ keyPrefix: name, points, duration: rateLimitWindowSeconds }),
  close: async () => undefined,
})
