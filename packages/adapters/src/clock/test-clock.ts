import type { Clock } from "@payments-engine/core"

const validTime = (date: Date, what: string): number => {
  const time = date.getTime()
  if (!Number.isFinite(time)) throw new RangeError(`TestClock: ${what} is an invalid Date`)
  return time
}

/**
 * A clock that moves only when told: tests and the sandbox advance it instead of sleeping.
 * `now()` returns a new Date each time, so callers cannot move the clock by mutating it.
 *
 * @example
 * const clock = new TestClock(new Date("2025-01-01T00:00:00.000Z"))
 * clock.advance(24 * 60 * 60 * 1000)
 * clock.now().toISOString() // "2025-01-02T00:00:00.000Z"
 */
export class TestClock implements Clock {
  #time: number

  /** Starts at `start`. */
  constructor(start: Date) {
    this.#time = validTime(start, "start")
  }

  /** The current test time. */
  now(): Date {
    return new Date(this.#time)
  }

  /** Moves the clock by `ms` milliseconds (negative moves it back). */
  advance(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`TestClock.advance: ${ms} is not a finite number of milliseconds`)
    this.#time = validTime(new Date(this.#time + ms), "the advanced time")
  }

  /** Sets the clock to `date`. */
  set(date: Date): void {
    this.#time = validTime(date, "date")
  }
}
