import {
  ApplicationId,
  BankAccount,
  type Engine,
  EntityId,
  Feature,
  FeatureStatusChange,
  Forbidden,
  FundingAccountLink,
  Invalid,
  messages,
} from "@payments-engine/core"
import { Schema } from "effect"
import type { RouteSpec } from "./route-table.ts"

/** What the sandbox helpers act on besides the engine. */
export interface SandboxControls {
  /** Moves the engine's clock forward. */
  readonly advanceClock: (ms: number) => void
  /** Runs every job due by the engine's clock, until none is; how many ran. */
  readonly runDueJobs: () => Promise<number>
  /** The engine's clock, to answer with the new time. */
  readonly now: () => Date
}

/** The longest move of the sandbox clock: one year, in seconds. */
export const maxAdvanceSeconds = 365 * 24 * 60 * 60

const ClockAdvance = Schema.Struct({
  seconds: Schema.Int.pipe(Schema.between(0, maxAdvanceSeconds)).annotations({
    description: "whole seconds to move the clock forward",
  }),
}).annotations({ identifier: "ClockAdvance" })
const ClockAdvanced = Schema.Struct({
  now: Schema.String.annotations({ description: "the sandbox clock's new time, ISO 8601" }),
  jobs_run: Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "background jobs that ran" }),
}).annotations({ identifier: "ClockAdvanced" })

/** The `seconds` of the body: 400 when the body is not an object or has none, 422 when it is not 0 to a year. */
const secondsOf = (body: unknown): number => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw Invalid.missing("body", "Body must be a JSON object")
  }
  const seconds = (body as { seconds?: unknown }).seconds
  if (seconds === undefined) throw Invalid.missing("seconds", "Seconds is required")
  if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 0 || seconds > maxAdvanceSeconds) {
    throw Invalid.rule("seconds", `must be a whole number from 0 to ${maxAdvanceSeconds}`)
  }
  return seconds
}

/**
 * The `status` of a body; a body that is not an object is a 400 before the engine checks the
 * value. The engine's `setStatus` takes the status alone, so an embedder can pass a string.
 */
const statusOf = (body: unknown): unknown => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw Invalid.missing("body", "Body must be a JSON object")
  }
  return (body as { status?: unknown }).status
}

/**
 * Sandbox-only helpers, like Stripe's test helpers: link a test funding account as the hosted page
 * would, move a feature application through its review as the provider would, and move the clock
 * (then run the jobs that became due) to try expiry and retries without waiting. Registered only
 * in sandbox mode; elsewhere their paths answer 404.
 *
 * @example
 * const routes = [...apiRoutes, ...sandboxRoutes({ advanceClock: (ms) => clock.advance(ms), runDueJobs, now: () => clock.now() })]
 */
export const sandboxRoutes = (controls: SandboxControls): ReadonlyArray<RouteSpec> => [
  {
    method: "POST",
    path: "/api/v1/sandbox/entities/{eid}/funding_accounts",
    operationId: "sandboxLinkFundingAccount",
    summary: "Sandbox: link a test bank account of the entity as a funding account (debit profile)",
    tag: "Sandbox",
    auth: "bearer",
    request: FundingAccountLink,
    response: { kind: "data", schema: BankAccount },
    status: 201,
    errors: [401, 403, 404, 422, 500],
    handle: ({ engine, actor, pathId, body }) => engine.fundingAccounts.link(actor, pathId("eid", EntityId), body),
  },
  {
    method: "POST",
    path: "/api/v1/sandbox/features/{application_id}/status",
    operationId: "sandboxSetFeatureStatus",
    summary:
      "Sandbox: move a feature application to SUBMITTED, ACTIVE or ACTION_REQUIRED as the provider's review would; ACTIVE activates the entity's payment integration",
    tag: "Sandbox",
    auth: "bearer",
    request: FeatureStatusChange,
    response: { kind: "data", schema: Feature },
    status: 200,
    errors: [400, 401, 403, 404, 409, 422],
    handle: ({ engine, actor, pathId, body }) =>
      engine.features.setStatus(actor, pathId("application_id", ApplicationId), statusOf(body)),
  },
  {
    method: "POST",
    path: "/api/v1/sandbox/clock/advance",
    operationId: "sandboxAdvanceClock",
    summary: "Sandbox: move the engine clock forward by `seconds` and run the jobs that became due",
    tag: "Sandbox",
    auth: "bearer",
    request: ClockAdvance,
    response: { kind: "data", schema: ClockAdvanced },
    status: 200,
    errors: [401, 403, 422],
    handle: async ({ actor, body }) => {
      if (actor.scope !== "write") throw new Forbidden({ field: "base", message: messages.readOnlyKey })
      controls.advanceClock(secondsOf(body) * 1000)
      const jobsRun = await controls.runDueJobs()
      return { now: controls.now().toISOString(), jobs_run: jobsRun }
    },
  },
]
