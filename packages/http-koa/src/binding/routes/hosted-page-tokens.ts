import {
  CompanyId,
  EntityHostedPageTokenRequest,
  EntityId,
  FundingTokenRequest,
  HostedPageToken,
} from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Hosted-page tokens"

/**
 * Rows of the hosted-page token routes (spec "Hosted-page token object"): one under an entity for
 * recipient and feature tokens, told apart by `purpose`, and one for funding-accounts tokens.
 * Both count against the multi-currency limit: the entity route serves the feature tokens
 * DECISIONS puts there (and is limited before its body tells the purposes apart), the funding
 * route needs a multi-currency account.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...hostedPageTokenRoutes] })
 */
export const hostedPageTokenRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/entities/{eid}/hosted_page_tokens",
    operationId: "createEntityHostedPageToken",
    summary:
      "Issue a hosted-page token (2 hours) for a recipient's bank account (recipient_add_bank_account) or a multi-currency application (onboarding, pending_action)",
    tag,
    auth: "bearer",
    rateLimit: "multi_currency",
    request: EntityHostedPageTokenRequest,
    response: { kind: "data", schema: HostedPageToken },
    status: 201,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: ({ engine, actor, pathId, body }) =>
      engine.hostedPageTokens.createForEntity(actor, pathId("cid", CompanyId), pathId("eid", EntityId), body),
  },
  {
    method: "POST",
    path: "/api/v1/hosted_page_tokens",
    operationId: "createFundingHostedPageToken",
    summary:
      "Issue a hosted-page token (2 hours) for an entity's funding accounts (funding_accounts); the entity needs a multi-currency account",
    tag,
    auth: "bearer",
    rateLimit: "multi_currency",
    request: FundingTokenRequest,
    response: { kind: "data", schema: HostedPageToken },
    status: 201,
    errors: [400, 401, 403, 409, 413, 415, 422],
    handle: ({ engine, actor, body }) => engine.hostedPageTokens.createForFunding(actor, body),
  },
]
