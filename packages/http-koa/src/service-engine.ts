import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { type Clock, createEngine, type Engine, type SecretHasher, type Storage } from "@payments-engine/core"

/** Options of {@link createServiceEngine}. */
export interface ServiceEngineOptions {
  readonly storage: Storage
  /** The system clock by default. */
  readonly clock?: Clock
  /** scrypt with its default cost by default. */
  readonly hasher?: SecretHasher
  /** Called when a committed change queued background jobs (wakes the job runner). */
  readonly onJobsQueued?: () => void
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
    // The sandbox providers are the only ones there are so far; see the README.
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
    ...(options.onJobsQueued === undefined ? {} : { onJobsQueued: options.onJobsQueued }),
  })
}
