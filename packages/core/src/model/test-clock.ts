import { Schema } from "effect"
import { required } from "./fields.ts"
import type * as Types from "./types/test-clock.ts"

export * from "./types/test-clock.ts"

/** The longest single move of a test clock: one year, in seconds. */
export const maxAdvanceSeconds = 365 * 24 * 60 * 60

const clockAdvanceFields = {
  seconds: required(
    Schema.Int.pipe(Schema.between(0, maxAdvanceSeconds)).annotations({
      description: "whole seconds to move the workspace's test clock forward",
      message: () => ({ message: `must be a whole number from 0 to ${maxAdvanceSeconds}`, override: true }),
    }),
    "Seconds is required",
  ),
}

/** The Schema of {@link ClockAdvance}, named so that declarations refer to it instead of copying it. */
export interface ClockAdvanceSchema extends Schema.Struct<typeof clockAdvanceFields> {}
/**
 * Body of `POST /api/v1/sandbox/clock/advance`: a missing `seconds` is `missing`, anything but a
 * whole number from 0 to a year `invalid`, both on `seconds`.
 */
export const ClockAdvance: ClockAdvanceSchema = Schema.Struct(clockAdvanceFields).annotations({
  identifier: "ClockAdvance",
})

const clockAdvancedFields = {
  now: Schema.String.annotations({ description: "the workspace's test clock's new time, ISO 8601" }),
  jobs_run: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "background jobs of the workspace that ran",
  }),
}

/** The Schema of {@link ClockAdvanced}, named so that declarations refer to it instead of copying it. */
export interface ClockAdvancedSchema extends Schema.Struct<typeof clockAdvancedFields> {}
/** Answer of `POST /api/v1/sandbox/clock/advance`. */
export const ClockAdvanced: ClockAdvancedSchema = Schema.Struct(clockAdvancedFields).annotations({
  identifier: "ClockAdvanced",
})
export type ClockAdvanced = Types.ClockAdvanced
