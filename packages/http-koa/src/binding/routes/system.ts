import { Schema } from "effect"
import type { RouteSpec } from "./route-table.ts"

/**
 * Body of `GET /health`.
 *
 * @example
 * const row = { response: { kind: "raw", schema: Health } }
 */
export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Health" })

/**
 * Body of `GET /openapi.json`: an OpenAPI 3.1 document.
 *
 * @example
 * const row = { response: { kind: "raw", schema: OpenApiDocument } }
 */
export const OpenApiDocument = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  identifier: "OpenApiDocument",
  description: "An OpenAPI 3.1 document",
})

/**
 * Rows open to anyone outside `/api`: readiness and the OpenAPI document.
 *
 * @example
 * const router = registerRoutes([...systemRoutes], dependencies)
 */
export const systemRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/health",
    operationId: "getHealth",
    summary: "Readiness: 200 once the database is migrated and the server listens",
    tag: "System",
    auth: "none",
    response: { kind: "raw", schema: Health },
    status: 200,
    errors: [],
    handle: async () => ({ status: "ok" }),
  },
  {
    method: "GET",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This OpenAPI 3.1 document, generated from the route table and the request schemas",
    tag: "System",
    auth: "none",
    response: { kind: "raw", schema: OpenApiDocument },
    status: 200,
    errors: [],
    handle: async ({ openApi }) => openApi(),
  },
]
