import {
  ApplicationId,
  BankAccount,
  ClockAdvance,
  ClockAdvanced,
  EntityId,
  Feature,
  FeatureStatusChange,
  FundingAccountLink,
  Invalid,
} from "@payments-engine/core/effect"
import type { RouteSpec, UncheckedBody } from "./route-table.ts"

/**
 * The `status` of a body; a body that is not an object is a 400 before the engine checks the
 * value. The engine's `setStatus` takes the status alone, so an embedder can pass a string.
 */
const statusOf = (body: UncheckedBody): UncheckedBody => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw Invalid.missing("body", "Body must be a JSON object")
  }
  return (body as { readonly status: UncheckedBody }).status
}

/**
 * Sandbox-only helpers, like Stripe's test helpers: link a test funding account as the hosted page
 * would, move a feature application through its review as the provider would, and move the
 * caller's workspace's test clock (then run the jobs that became due) to try expiry and retries
 * without waiting. Registered only in sandbox mode (on an engine with `testClocks`); elsewhere
 * their paths answer 404.
 *
 * @example
 * const routes = config.sandbox ? [...apiRoutes, ...sandboxRoutes] : apiRoutes
 */
export const sandboxRoutes: ReadonlyArray<RouteSpec> = [
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
    summary:
      "Sandbox: move the test clock of the caller's workspace forward by `seconds` and run the workspace's jobs that became due; other workspaces' clocks do not move",
    tag: "Sandbox",
    auth: "bearer",
    request: ClockAdvance,
    response: { kind: "data", schema: ClockAdvanced },
    status: 200,
    errors: [401, 403, 422],
    handle: async ({ engine, actor, body }) => {
      const { now } = await engine.testClocks.advance(actor, body)
      const { ran } = await engine.jobs.runDue({ workspaceId: actor.workspaceId })
      return { now: now.toISOString(), jobs_run: ran }
    },
  },
]
