/**
 * Requests per minute of each rate limit (DECISIONS "Rate limits"). Every one but the two of
 * `POST /api/v1/sessions` counts per API key and workspace.
 */
export interface RateLimitSettings {
  /** Every authenticated route without a limit of its own. */
  readonly general: number
  /** `POST /api/v1/companies/{cid}/quotes`. */
  readonly quotes: number
  /** `POST /api/v1/companies/{cid}/payments`. */
  readonly payments: number
  /** The multi-currency endpoints: an entity's features, listed and enabled. */
  readonly multiCurrency: number
  /**
   * Failed `POST /api/v1/sessions` (401) per `api_key` of the body and client address, against
   * guessing one key's secret; counted by address too, so nobody else can spend the owner's.
   */
  readonly failedSessions: number
  /** `POST /api/v1/sessions` per client address, against guessing across keys. */
  readonly sessionsPerAddress: number
}

/** One limit's name. */
export type RateLimitName = keyof RateLimitSettings

/** The limits of DECISIONS, and ours for sessions (see docs/decisions.md). */
export const defaultRateLimits: RateLimitSettings = {
  general: 1000,
  quotes: 300,
  payments: 300,
  multiCurrency: 100,
  failedSessions: 20,
  sessionsPerAddress: 60,
}

/** The window every limit counts in: a fixed minute that starts at a key's first request. */
export const rateLimitWindowSeconds = 60

/** Largest limit accepted, per minute. */
export const maxRateLimit = 1_000_000

/** The environment variable that sets each limit. */
export const rateLimitVariables: { readonly [K in RateLimitName]: string } = {
  general: "PAYMENTS_RATE_LIMIT_GENERAL",
  quotes: "PAYMENTS_RATE_LIMIT_QUOTES",
  payments: "PAYMENTS_RATE_LIMIT_PAYMENTS",
  multiCurrency: "PAYMENTS_RATE_LIMIT_MULTI_CURRENCY",
  failedSessions: "PAYMENTS_RATE_LIMIT_FAILED_SESSIONS",
  sessionsPerAddress: "PAYMENTS_RATE_LIMIT_SESSIONS_PER_ADDRESS",
}

/**
 * Every limit, the defaults completed by `overrides`; throws a RangeError for a limit that is not
 * an integer from 1 to {@link maxRateLimit}.
 *
 * @example
 * rateLimitSettings({ quotes: 10 }).general // 1000
 */
export const rateLimitSettings = (overrides: Partial<RateLimitSettings> = {}): RateLimitSettings => {
  const settings = { ...defaultRateLimits, ...overrides }
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value < 1 || value > maxRateLimit) {
      throw new RangeError(`rate limit ${name} must be an integer from 1 to ${maxRateLimit}, got ${value}`)
    }
  }
  return settings
}
