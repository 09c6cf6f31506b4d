import { Schema } from "effect"
import type { HttpAnswer, RouteSpec } from "./route-table.ts"

/**
 * Body of `GET /health`.
 *
 * @example
 * const row = { response: { kind: "raw", schema: Health } }
 */
export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Health" })

const CheckOutcome = Schema.Literal("pass", "fail")
const CheckName = Schema.Literal("database", "migrations", "job_runner", "shutdown")

/**
 * Body of `GET /ready`, 200 or 503 alike.
 *
 * @example
 * const row = { response: { kind: "answer", schema: Readiness } }
 */
export const Readiness = Schema.Struct({
  status: Schema.Literal("ready", "not_ready"),
  checks: Schema.Struct({
    database: Schema.optional(CheckOutcome).annotations({
      description: "The database answers a read (of the migrations table)",
    }),
    migrations: Schema.optional(CheckOutcome).annotations({
      description: "Every migration this version needs has run",
    }),
    job_runner: Schema.optional(CheckOutcome).annotations({
      description: "The background job runner was started and has not stopped",
    }),
    shutdown: Schema.optional(CheckOutcome).annotations({
      description: "pass until the process begins to shut down",
    }),
  }),
  failed: Schema.Array(CheckName).annotations({ description: "The checks that fail; empty when ready" }),
}).annotations({ identifier: "Readiness" })

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
 * Rows open to anyone outside `/api`: liveness, readiness and the OpenAPI document.
 *
 * @example
 * const { routes } = registerRoutes([...systemRoutes], dependencies)
 */
export const systemRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/health",
    operationId: "getHealth",
    summary: "Liveness: 200 while the process serves HTTP; it checks nothing else (see GET /ready)",
    tag: "System",
    auth: "none",
    response: { kind: "raw", schema: Health },
    status: 200,
    errors: [],
    handle: async () => ({ status: "ok" }),
  },
  {
    method: "GET",
    path: "/ready",
    operationId: "getReadiness",
    summary:
      "Readiness: 200 when the database answers, its migrations have run, the job runner runs and the process is not shutting down; 503 naming the failing checks otherwise",
    tag: "System",
    auth: "none",
    response: { kind: "answer", schema: Readiness },
    status: 200,
    errors: [503],
    errorsLikeSuccess: {
      503: {
        status: "not_ready",
        checks: { database: "fail", migrations: "fail", job_runner: "pass", shutdown: "pass" },
        failed: ["database", "migrations"],
      },
    },
    handle: async ({ readiness }): Promise<HttpAnswer> => {
      const report = await readiness()
      return {
        status: report.status === "ready" ? 200 : 503,
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
        body: JSON.stringify(report),
      }
    },
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
