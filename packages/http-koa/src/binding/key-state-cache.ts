import type { Clock } from "@payments-engine/core"

/** Options of {@link answerCache}. */
export interface AnswerCacheOptions {
  /** How long an answer is reused; 0 asks the lookup every time. */
  readonly ttlSeconds: number
  /** The source of time of the expiry; the system clock by default. */
  readonly clock?: Clock
  /** Most answers kept; the oldest go first. 10,000 by default. */
  readonly maxEntries?: number
}

interface Entry<V> {
  readonly value: Promise<V>
  readonly until: number
}

/**
 * Reuses each answer for `ttlSeconds` by the given clock: how one process trusts the state of an
 * API key for a bounded time instead of reading it on every request. Concurrent calls for one key
 * share one lookup; a lookup that fails is not kept, so the next call asks again.
 *
 * @example
 * declare const isLive: (keyId: string) => Promise<boolean>
 * const cached = answerCache<boolean>({ ttlSeconds: 30 })
 * await cached("key_1", () => isLive("key_1")) // looked up
 * await cached("key_1", () => isLive("key_1")) // the same answer, for 30 seconds
 */
export const answerCache = <V>(
  options: AnswerCacheOptions,
): ((key: string, lookup: () => Promise<V>) => Promise<V>) => {
  const { ttlSeconds, clock, maxEntries = 10_000 } = options
  if (ttlSeconds === 0) return (_key, lookup) => lookup()
  const entries = new Map<string, Entry<V>>()
  const now = () => (clock?.now() ?? new Date()).getTime()
  return (key, lookup) => {
    const cached = entries.get(key)
    if (cached !== undefined && now() < cached.until) return cached.value
    entries.delete(key)
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next()
      if (oldest.done !== true) entries.delete(oldest.value)
    }
    const value = lookup()
    const entry = { value, until: now() + ttlSeconds * 1000 }
    entries.set(key, entry)
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key)
    })
    return value
  }
}
