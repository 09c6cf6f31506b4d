import { type CircuitState, circuitThreshold } from "./circuit-breaker.ts"

/**
 * When the engine deactivates a webhook endpoint by itself: every attempt to it has failed for
 * {@link disableAfterFailingMs} (5 days, as Svix), measured from the first failure since its last
 * 200 by the workspace's clock, and at least {@link circuitThreshold} failed in a row (its circuit
 * opened), so a lone failure days after an earlier one does not count as days of failing.
 */

/** How long every attempt to an endpoint must have failed before it is disabled. */
export const disableAfterFailingMs = 5 * 24 * 60 * 60 * 1000

/**
 * Whether an active endpoint whose circuit is now `circuit` (after a failed attempt at `at`) is to
 * be disabled: failing since at least {@link disableAfterFailingMs} before `at`, with at least
 * {@link circuitThreshold} failures in a row.
 *
 * @example
 * failingLongEnough({ consecutive_failures: 9, circuit_open_until: null, failing_since: "2026-01-01T00:00:00.000Z" },
 *   new Date("2026-01-06T00:00:00.000Z")) // true
 */
export const failingLongEnough = (circuit: CircuitState, at: Date): boolean =>
  circuit.failing_since !== null &&
  circuit.consecutive_failures >= circuitThreshold &&
  at.getTime() - Date.parse(circuit.failing_since) >= disableAfterFailingMs
