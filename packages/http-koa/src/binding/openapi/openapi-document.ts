import { readFileSync } from "node:fs"
import { JSONSchema, Schema } from "effect"
import {
  acceptsIdempotencyKey,
  authErrors,
  bodyErrors,
  idempotencyErrors,
  pathParameters,
  type RouteSpec,
  rateLimitOf,
} from "../routes/route-table.ts"
import { WebhookErrorResponse, WebhookPageMeta, webhookErrorStatuses } from "../webhook-errors.ts"
import { errorExampleOf, exampleOf } from "./openapi-examples.ts"
import { ErrorResponse, PageLinks, PageMeta } from "./openapi-schemas.ts"

/** A JSON Schema or OpenAPI object, as plain JSON. */
type Json = { readonly [key: string]: unknown }

/** The parts of an OpenAPI 3.1 document this generator writes. */
export interface OpenApiDocument {
  readonly openapi: "3.1.0"
  readonly info: { readonly title: string; readonly version: string; readonly description?: string }
  readonly servers?: ReadonlyArray<{ readonly url: string }>
  readonly tags: ReadonlyArray<{ readonly name: string }>
  readonly paths: Record<string, Record<string, Json>>
  readonly components: {
    readonly schemas: Record<string, unknown>
    readonly securitySchemes: Record<string, Json>
    readonly parameters: Record<string, Json>
    readonly headers: Record<string, Json>
  }
}

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  readonly title?: string
  /** The document's `info.version`; the packages' version by default. */
  readonly version?: string
  /** The base URL of the API, written as the document's only server when given. */
  readonly serverUrl?: string
}

/**
 * The packages' version (they are released together), from this package's manifest: three folders
 * up from this module in the sources and in the build alike.
 */
const packagesVersion: string = (() => {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"))
  const version = (manifest as { version?: unknown }).version
  return typeof version === "string" ? version : "0.0.0"
})()

const reasons: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No content",
  400: "Missing or malformed input (`body`: not JSON or nested more than 64 levels; `page`, `per_page` or a missing field)",
  401: "Missing or invalid token (`token`), or wrong API key or secret (`api_key`)",
  403: "The API key may not do this, or a rule refuses the action (`base`)",
  404: "Not found, deleted, or another workspace's",
  406: "The `Accept` header allows no media type the route answers",
  409: "A request with this idempotency key is in progress",
  413: "Body over 1 MB",
  415: "Body is not `application/json`, or is compressed (`Content-Encoding`, or a `Transfer-Encoding` other than `chunked`)",
  422: "A field breaks a rule, or the idempotency key was used with other parameters",
  429: "Rate limit exceeded",
  500: "Internal server error",
}

/** A size as the documents state it: `10 MiB (10,485,760 bytes)`. */
const exactSize = (bytes: number) => `${bytes / (1024 * 1024)} MiB (${bytes.toLocaleString("en-US")} bytes)`

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })

const pagingParameters = (route: RouteSpec): Array<Json> =>
  route.paging === undefined
    ? []
    : [
        {
          name: "page",
          in: "query",
          required: false,
          description: "Page number; past the last page the list is empty with the right `meta`",
          schema: { type: "integer", minimum: 1, default: 1 },
        },
        {
          name: "per_page",
          in: "query",
          required: false,
          description: `Page size; above ${route.paging.maxPerPage} it is clamped to ${route.paging.maxPerPage}`,
          schema: { type: "integer", minimum: 1, default: route.paging.defaultPerPage },
        },
      ]

/**
 * The Schema of a route's success body: `{ data }` (with the route's echoed fields), a page
 * `{ data, meta, links }`, the route's own schema, or undefined for an empty answer or a download.
 *
 * @example
 * declare const route: RouteSpec
 * const body = successSchemaOf(route)
 */
export const successSchemaOf = (route: RouteSpec): Schema.Schema.Any | undefined => {
  const response = route.response
  switch (response.kind) {
    case "data":
      return Schema.Struct({ data: response.schema, ...(response.echo ?? {}) })
    case "created-or-existing":
      return Schema.Struct({ data: response.schema })
    case "page":
      return Schema.Struct({
        data: Schema.Array(response.schema),
        meta: response.meta === "webhook" ? WebhookPageMeta : PageMeta,
        links: PageLinks,
      })
    case "raw":
    case "answer":
      return response.schema
    case "empty":
    case "file":
      return undefined
  }
}

/**
 * The OpenAPI 3.1 document of a route table. Schemas come from the effect Schemas of the rows
 * (`JSONSchema` with the `openApi3.1` target) and land in `components.schemas`, so the document
 * describes exactly what the engine validates; nothing in it is written by hand.
 *
 * @example
 * const document = openApiDocument(apiRoutes, { serverUrl: "http://localhost:3000" })
 * document.paths["/api/v1/companies"]?.post?.requestBody
 */
export const openApiDocument = (routes: ReadonlyArray<RouteSpec>, options: OpenApiOptions = {}): OpenApiDocument => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const jsonSchema = (schema: Schema.Schema.Any, additionalProperties: "allow" | "strict"): unknown =>
    JSONSchema.fromAST(schema.ast, {
      definitions,
      definitionPath: "#/components/schemas/",
      target: "openApi3.1",
      additionalPropertiesStrategy: additionalProperties,
    })
  /** One OpenAPI parameter per property of the route's `query` struct, with its schema and description. */
  const queryParameters = (route: RouteSpec): Array<Json> => {
    if (route.query === undefined) return []
    const object = JSONSchema.fromAST(route.query.ast, {
      definitions,
      definitionPath: "#/components/schemas/",
      target: "openApi3.1",
      topLevelReferenceStrategy: "skip",
    }) as { properties?: Record<string, Json>; required?: ReadonlyArray<string> }
    return Object.entries(object.properties ?? {}).map(([name, schema]) => {
      const { description, ...rest } = schema as Json & { description?: string }
      return {
        name,
        in: "query",
        required: (object.required ?? []).includes(name),
        ...(description === undefined ? {} : { description }),
        schema: rest,
      }
    })
  }
  const errorSchema = jsonSchema(ErrorResponse, "strict")
  const webhookErrorSchema = jsonSchema(WebhookErrorResponse, "strict")
  const requestIdHeader = { "X-Request-Id": ref("headers", "XRequestId") }

  const successBody = (route: RouteSpec): unknown => {
    const schema = successSchemaOf(route)
    return schema === undefined ? undefined : jsonSchema(schema, "strict")
  }

  /** The success answer's content: JSON, the media types of a download, or none. */
  const successContent = (route: RouteSpec): Json | undefined => {
    if (route.response.kind === "file") {
      return Object.fromEntries(
        route.response.contentTypes.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
      )
    }
    const body = successBody(route)
    return body === undefined
      ? undefined
      : { "application/json": { schema: body, example: exampleOf(body, definitions, "response") } }
  }

  /** The request body: a JSON schema, a `multipart/form-data` upload, or none. */
  const requestBody = (route: RouteSpec): Json | undefined => {
    if (route.upload !== undefined) {
      return {
        required: true,
        description: `\`multipart/form-data\`; one file of at most ${exactSize(route.upload.maxFileBytes)}`,
        content: { "multipart/form-data": { schema: jsonSchema(route.upload.form, "strict") } },
      }
    }
    if (route.request === undefined) return undefined
    const schema = jsonSchema(route.request, "allow")
    return {
      required: false,
      description: "JSON; an empty body is `{}`",
      content: { "application/json": { schema, example: exampleOf(schema, definitions, "request") } },
    }
  }

  /** Why this route answers `status`: the common reason, or the route's own where it differs. */
  const reasonOf = (route: RouteSpec, status: number): string => {
    if (route.upload !== undefined && status === 413) {
      return `File over ${exactSize(route.upload.maxFileBytes)}, refused as soon as it passes it (a declared body over that and 64 KiB before it is read); the connection is closed`
    }
    if (route.upload !== undefined && status === 429) {
      return "Rate limit exceeded, or this API key has as many uploads in progress as it may (`Retry-After`)"
    }
    if (route.upload !== undefined && status === 503) {
      return "The service has as many uploads in progress as it takes (`Retry-After`)"
    }
    if (route.errorsLikeSuccess?.[status] !== undefined && status === 503) {
      return "Not ready: `failed` names the checks that fail"
    }
    if (route.maxBodyBytes !== undefined && status === 413) {
      return `Body over ${route.maxBodyBytes / 1024} KB`
    }
    if (route.upload !== undefined && status === 415) {
      return "Body is not `multipart/form-data`, or is compressed"
    }
    return reasons[status] ?? "Error"
  }

  const operation = (route: RouteSpec): Json => {
    const idempotent = acceptsIdempotencyKey(route)
    const derived = [
      ...(route.auth === "bearer" ? authErrors : []),
      ...(route.request === undefined && route.upload === undefined ? [] : bodyErrors),
      ...(idempotent ? idempotencyErrors : []),
      ...(rateLimitOf(route) === undefined ? [] : [429]),
      ...(route.upload === undefined ? [] : [429, 503]),
    ]
    const errorStatuses = [...new Set([...route.errors, ...derived])].sort((a, b) => a - b)
    const content = successContent(route)
    const body = requestBody(route)
    const downloadHeaders =
      route.response.kind === "file"
        ? {
            "Content-Disposition": {
              description: "`attachment` with the file's name (`filename`, and `filename*` in UTF-8 when needed)",
              schema: { type: "string" },
            },
            "X-Content-Type-Options": { schema: { type: "string", enum: ["nosniff"] } },
          }
        : {}
    const success: Json = {
      description: reasons[route.status] ?? "Success",
      headers: idempotent
        ? { ...requestIdHeader, "Idempotent-Replayed": ref("headers", "IdempotentReplayed") }
        : { ...requestIdHeader, ...downloadHeaders },
      ...(content === undefined ? {} : { content }),
    }
    const responses: Record<string, Json> = { [String(route.status)]: success }
    if (route.response.kind === "created-or-existing") {
      responses["200"] = { ...success, description: "The resource an earlier request with the same key created" }
    }
    for (const status of errorStatuses) {
      responses[String(status)] = {
        description: reasonOf(route, status),
        headers: requestIdHeader,
        content:
          route.errorsLikeSuccess?.[status] !== undefined && content?.["application/json"] !== undefined
            ? {
                "application/json": {
                  schema: (content["application/json"] as { schema: unknown }).schema,
                  example: route.errorsLikeSuccess[status],
                },
              }
            : route.errorShape === "webhook" && webhookErrorStatuses.has(status)
              ? { "application/json": { schema: webhookErrorSchema, example: errorExampleOf(status, "webhook") } }
              : { "application/json": { schema: errorSchema, example: errorExampleOf(status, "general") } },
      }
    }
    return {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      security: route.auth === "bearer" ? [{ bearerAuth: [] }] : [],
      parameters: [
        ...pathParameters(route.path).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
        ...queryParameters(route),
        ...pagingParameters(route),
        ...(idempotent ? [ref("parameters", "IdempotencyKey")] : []),
      ],
      ...(body === undefined ? {} : { requestBody: body }),
      responses,
    }
  }

  const paths: Record<string, Record<string, Json>> = {}
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) }
  }

  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "Payments engine API",
      version: options.version ?? packagesVersion,
      description:
        "Companies, entities, recipients and their payments. Exchange an API key and secret for a bearer token at `POST /api/v1/sessions`.",
    },
    ...(options.serverUrl === undefined ? {} : { servers: [{ url: options.serverUrl }] }),
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: definitions,
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "1 to 255 characters. The same key with the same request within 24 hours returns the first response again.",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        XRequestId: {
          description: "The request id: the client's when it was 1-200 characters of [A-Za-z0-9._:-], else generated",
          schema: { type: "string" },
        },
        IdempotentReplayed: {
          description: "`true` when the answer is the replay of an earlier request with the same key",
          schema: { type: "string", enum: ["true"] },
        },
      },
    },
  }
}
