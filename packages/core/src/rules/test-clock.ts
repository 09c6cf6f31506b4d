import { maxAdvanceSeconds } from "../model/test-clock.ts"

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
export const offsetClock = (engine: { now(): Date }, offsetMs: number): { now(): Date } =>
  offsetMs === 0 ? engine : { now: () => new Date(engine.now().getTime() + offsetMs) }
