import { CompanyId, Quote, QuoteCreate } from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Payments"

/**
 * Rows of quotes: a priced, single-use offer between two profiles, valid 15 minutes.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...quoteRoutes] })
 */
export const quoteRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/quotes",
    operationId: "createQuote",
    summary: "Price a transfer between two profiles; valid 15 minutes, for one payment",
    tag,
    auth: "bearer",
    rateLimit: "quotes",
    request: QuoteCreate,
    response: { kind: "data", schema: Quote },
    status: 201,
    errors: [400, 401, 403, 404, 422, 500],
    handle: ({ engine, actor, pathId, body }) => engine.quotes.create(actor, pathId("cid", CompanyId), body),
  },
]
