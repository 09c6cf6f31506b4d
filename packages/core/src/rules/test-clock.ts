import type { Clock } from "../ports/clock.ts"

/** The longest single move of a test clock: one year, in seconds. */
export const maxAdvanceSeconds = 365 * 24 * 60 * 60

/**
 * How far ahead of the engine's clock a test clock may run in all: a hundred years, so a
 * workspace's time stays far inside what a `Date` holds however often it is moved.
 */
export const maxTestClockOffsetMs = 100 * maxAdvanceSeconds * 1000

/**
 * A workspace's clock: the engine's clock, `offsetMs` ahead. It keeps ticking with the engine's
 * clock between moves, so timestamps stay apart.
 *
 * @example
 * offsetClock(systemClock, 15 * 60 * 1000).now() // a quarter of an hour from now
 */
export const offsetClock = (engine: Clock, offsetMs: number): Clock =>
  offsetMs === 0 ? engine : { now: () => new Date(engine.now().getTime() + offsetMs) }
