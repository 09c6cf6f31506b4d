import type { Clock } from "@payments-engine/core"

/**
 * The machine's wall clock.
 *
 * @example
 * const engine = createEngine({ storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher() })
 */
export const systemClock: Clock = {
  now: () => new Date(),
}
