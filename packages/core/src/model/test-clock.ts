import { Schema } from "effect"
import { maxAdvanceSeconds } from "../rules/test-clock.ts"

/** Body of `POST /api/v1/sandbox/clock/advance`. */
export const ClockAdvance = Schema.Struct({
  seconds: Schema.Int.pipe(Schema.between(0, maxAdvanceSeconds)).annotations({
    description: "whole seconds to move the workspace's test clock forward",
  }),
}).annotations({ identifier: "ClockAdvance" })

/** Answer of `POST /api/v1/sandbox/clock/advance`. */
export const ClockAdvanced = Schema.Struct({
  now: Schema.String.annotations({ description: "the workspace's test clock's new time, ISO 8601" }),
  jobs_run: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "background jobs of the workspace that ran",
  }),
}).annotations({ identifier: "ClockAdvanced" })
export type ClockAdvanced = typeof ClockAdvanced.Type
