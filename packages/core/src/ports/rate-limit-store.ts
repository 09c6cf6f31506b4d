/** One limit: at most `points` requests of a key in each window of `windowSeconds`. */
export interface RateLimitWindow {
  /** The limit's name, which keeps its keys apart from other limits' in a shared store. */
  readonly name: string
  /** Requests a key may make in one window. */
  readonly points: number
  /** The window's length; it starts at a key's first request. */
  readonly windowSeconds: number
}

/** What counting one request of a key came to. */
export interface RateLimitCount {
  /** False once the key had spent the window's points: the request is refused. */
  readonly allowed: boolean
  /** Requests the key has left in this window; 0 when refused. */
  readonly remaining: number
  /** Milliseconds until the key's window ends, when a refused key may ask again. */
  readonly msBeforeReset: number
}

/** The counters of one {@link RateLimitWindow}, one per key. */
export interface RateLimitCounter {
  /** Counts one request of `key`. Rejects only when the store fails. */
  consume(key: string): Promise<RateLimitCount>
  /** Gives back one request counted for `key` (one that should not count). */
  giveBack(key: string): Promise<void>
  /** Forgets what `key` spent in this window. */
  forget(key: string): Promise<void>
}

/**
 * Where the counters of rate limits live: in the process (`memoryRateLimitStore` of
 * `@payments-engine/adapters`), or in a database several processes share
 * (`openPostgresRateLimitStore` of `@payments-engine/adapters/postgres`), so that a limit holds
 * across them.
 *
 * @example
 * declare const store: RateLimitStore
 * const quotes = store.counter({ name: "quotes", points: 300, windowSeconds: 60 })
 * const { allowed, remaining } = await quotes.consume("ws_1:key_1")
 */
export interface RateLimitStore {
  /** The counters of `window`; asked once per limit, when the limits are set up. */
  counter(window: RateLimitWindow): RateLimitCounter
  /** Releases the store's connections; its counters must not be used afterwards. */
  close(): Promise<void>
}
