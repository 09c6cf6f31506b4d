import { Schema } from "effect"
import { required } from "./fields.ts"

/** The longest single move of a test clock: one year, in seconds. */
export const maxAdvanceSeconds = 365 * 24 * 60 * 60

/**
 * Body of `POST /api/v1/sandbox/clock/advance`: a missing `seconds` is `missing`, anything but a
 * whole number from 0 to a year `invalid`, both on `seconds`.
 */
export const ClockAdvance = Schema.Struct({
  seconds: required(
    Schema.Int.pipe(Schema.between(0, maxAdvanceSeconds)).annotations({
      description: "whole seconds to move the workspace's test clock forward",
      message: () => ({ message: `must be a whole number from 0 to ${maxAdvanceSeconds}`, override: true }),
    }),
    "Seconds is required",
  ),
}).annotations({ identifier: "ClockAdvance" })

/** Answer of `POST /api/v1/sandbox/clock/advance`. */
export const ClockAdvanced = Schema.Struct({
  now: Schema.String.annotations({ description: "the workspace's test clock's new time, ISO 8601" }),
  jobs_run: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "background jobs of the workspace that ran",
  }),
}).annotations({ identifier: "ClockAdvanced" })
export type ClockAdvanced = typeof ClockAdvanced.Type
