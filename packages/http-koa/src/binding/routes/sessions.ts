import { Session, SessionCreate } from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

/**
 * The one API route without a bearer token: exchanges an API key and secret for a token.
 *
 * @example
 * const { routes } = registerRoutes([...sessionRoutes], dependencies)
 */
export const sessionRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "POST",
    path: "/api/v1/sessions",
    operationId: "createSession",
    summary: "Exchange an API key and secret for a bearer token",
    tag: "Sessions",
    auth: "none",
    rateLimit: "sessions",
    request: SessionCreate,
    response: { kind: "data", schema: Session },
    status: 201,
    errors: [400, 401, 413, 415],
    handle: async ({ engine, tokens, body }) => tokens.issue(await engine.access.authenticate(body)),
  },
]
