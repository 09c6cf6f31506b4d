import { randomIds, scryptHasher, systemClock } from "@payments-engine/adapters"
import { type Clock, createEngine, type Engine, type SecretHasher, type Storage } from "@payments-engine/core"

/** Options of {@link createServiceEngine}. */
export interface ServiceEngineOptions {
  readonly storage: Storage
  /** The system clock by default. */
  readonly clock?: Clock
  /** scrypt with its default cost by default. */
  readonly hasher?: SecretHasher
}

/**
 * The engine the service and the `payments-engine` command run, over a storage: the one place
 * that picks the ports (clock, time-ordered random ids on that clock, scrypt).
 *
 * @example
 * const engine = createServiceEngine({ storage: await openStorageFromUrl(config.databaseUrl) })
 */
export const createServiceEngine = (options: ServiceEngineOptions): Engine => {
  const clock = options.clock ?? systemClock
  return createEngine({
    storage: options.storage,
    clock,
    ids: randomIds({ clock }),
    hasher: options.hasher ?? scryptHasher(),
  })
}
