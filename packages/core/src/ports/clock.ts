/**
 * The engine's only source of time, so tests and the sandbox can move it.
 *
 * @example
 * const clock: Clock = { now: () => new Date() }
 */
export interface Clock {
  now(): Date
}
