import { Schema } from "effect"
import { type ExecutionResult, GraphQLError } from "graphql"
import { createHandler } from "graphql-http"
import type { RouteSpec } from "../routes/route-table.ts"
import { type GraphqlContext, graphqlSchema } from "./graphql-schema.ts"
import { boundedParse, boundedValidate, graphqlLimits } from "./query-limits.ts"

/** A GraphQL-over-HTTP request body, for the document. */
export const GraphqlRequest = Schema.Struct({
  query: Schema.String,
  variables: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  operationName: Schema.optional(Schema.NullOr(Schema.String)),
}).annotations({
  identifier: "GraphqlRequest",
  description: `A GraphQL request (GraphQL over HTTP), at most ${graphqlLimits.maxBodyBytes / 1024} KB`,
})

/** A GraphQL-over-HTTP response body, for the document. */
export const GraphqlResponse = Schema.Struct({
  data: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  errors: Schema.optional(
    Schema.Array(
      Schema.Struct({
        message: Schema.String,
        extensions: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
      }),
    ),
  ),
}).annotations({
  identifier: "GraphqlResponse",
  description:
    "`data` and/or `errors`. Invalid domains come back in the mutation's own `errors { field messages }`; a refused query (malformed, invalid, too deep or too large) in top-level `errors`",
})

/**
 * Rethrows a defect a resolver met (anything but a GraphQL error: the resolvers turn domain
 * errors into GraphQL errors themselves), so that the route answers the API's 500 and logs it,
 * rather than graphql-js answering its message (a database error's text, say) to the client.
 */
const rethrowDefects = (_request: unknown, _args: unknown, result: ExecutionResult): void => {
  for (const error of result.errors ?? []) {
    const cause = error.originalError
    if (cause !== undefined && cause !== null && !(cause instanceof GraphQLError)) throw cause
  }
}

/**
 * graphql-http's generic handler, fed by the route row: the body comes from the row's bounded
 * JSON parser and the caller from its bearer check (graphql-http's Koa adapter would read the
 * body itself, without a bound), parsing and validation bounded by {@link graphqlLimits}.
 */
const handle = createHandler<undefined, GraphqlContext, GraphqlContext>({
  schema: graphqlSchema,
  context: (request) => request.context,
  parse: boundedParse,
  validate: boundedValidate,
  onOperation: rethrowDefects,
})

/**
 * `POST /graphql` (DECISIONS "Trusted domains"): the GraphQL API, `upsertTrustedDomainConfig`
 * and `trustedDomainConfig`, with bearer auth and the general rate limit as every API route.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...apiRoutes] }) // apiRoutes holds this row
 */
export const graphqlRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "POST",
    path: "/graphql",
    operationId: "postGraphql",
    summary:
      "GraphQL over HTTP: query trustedDomainConfig { id domains } and mutation upsertTrustedDomainConfig(input: { domains }) { trustedDomainConfig { id domains } errors { field messages } }",
    tag: "GraphQL",
    auth: "bearer",
    request: GraphqlRequest,
    maxBodyBytes: graphqlLimits.maxBodyBytes,
    response: { kind: "answer", schema: GraphqlResponse },
    status: 200,
    errors: [406],
    handle: async ({ engine, actor, body, header }) => {
      const [text, init] = await handle({
        method: "POST",
        url: "/graphql",
        headers: { get: (name: string) => header(name) ?? null },
        body: body as Record<string, unknown>,
        raw: undefined,
        context: { engine, actor },
      })
      return { status: init.status, headers: { ...init.headers }, body: text }
    },
  },
]
