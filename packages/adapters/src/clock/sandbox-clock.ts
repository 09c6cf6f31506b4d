import type { Clock } from "@payments-engine/core"

/**
 * The sandbox's clock: real time plus an offset that only grows. `POST /api/v1/sandbox/clock/advance`
 * moves it forward so quote expiry and retries can be tried without waiting, while timestamps keep
 * ticking like a real clock in between.
 *
 * @example
 * const clock = new SandboxClock()
 * clock.advance(15 * 60 * 1000) // quotes created before now have expired
 */
export class SandboxClock implements Clock {
  #offsetMs = 0

  constructor(private readonly realNow: () => number = Date.now) {}

  now(): Date {
    return new Date(this.realNow() + this.#offsetMs)
  }

  /** Moves the clock forward by `ms` (never back: time in the sandbox does not rewind). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`SandboxClock.advance: ${ms} is not a non-negative number of milliseconds`)
    this.#offsetMs += ms
  }
}
