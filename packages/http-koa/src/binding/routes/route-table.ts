import type { Actor, Engine, PagePolicy } from "@payments-engine/core"
import type { IdSchema } from "@payments-engine/core/effect"
import type { Schema } from "effect"
import type { BearerTokens } from "../bearer-tokens.ts"
import type { ReadinessReport } from "../readiness.ts"
import type { MultipartForm } from "../uploaded-form.ts"

/** The methods the API uses. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE"

/**
 * A parsed JSON body not yet checked. The use case it is handed to decodes it with its request
 * Schema, as it does any untyped caller's, and refuses a wrong one with field errors (a 4xx). It is
 * `never` so that it goes to a use case's typed body as it is, the one cast made where the request
 * is read (docs/decisions.md, "Typed embedded bodies"), and so that a route cannot read into it: routes hold
 * no business rule.
 */
export type UncheckedBody = never

/** What a route handler receives: the engine, the caller, and the raw request parts. */
export interface PublicRouteCall {
  readonly engine: Engine
  readonly tokens: BearerTokens
  /** A path parameter by the name it has in the route's path (`{cid}` is `param("cid")`), as sent. */
  readonly param: (name: string) => string
  /**
   * A path parameter that names a resource, branded as an id of `kind` (`pathId("cid", CompanyId)`):
   * where ids from a path enter the engine. Nothing is checked: an id of no such resource is the
   * engine's not found.
   */
  readonly pathId: <S extends IdSchema>(name: string, kind: S) => S["Type"]
  /** The raw query: strings, or arrays of strings for repeated parameters. */
  readonly query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /** A request header by its name (any case), as sent; undefined when absent. */
  readonly header: (name: string) => string | undefined
  /** The parsed JSON body (`{}` when empty), for routes with a `request` schema; see {@link UncheckedBody}. */
  readonly body: UncheckedBody
  /** The form of a route with an `upload`: its text fields and its one file (received whole into a spool file, read as a stream). */
  readonly form: MultipartForm | undefined
  /** The OpenAPI document of the app's route table. */
  readonly openApi: () => unknown
  /** What the service's readiness checks say now (`GET /ready`). */
  readonly readiness: () => Promise<ReadinessReport>
}

/** What an authenticated route handler receives: also the caller from the bearer token. */
export interface RouteCall extends PublicRouteCall {
  readonly actor: Actor
}

/** How a route renders what its handler returns. */
export type RouteResponse =
  /** `{ data }`, plus top-level copies of the listed fields of `data` (`echo`). */
  | {
      readonly kind: "data"
      readonly schema: Schema.Schema.Any
      readonly echo?: Readonly<Record<string, Schema.Schema.Any>>
    }
  /**
   * The handler returns a core `Page`; rendered `{ data, meta, links }`, with the spec's `meta`
   * of its list (`webhook`: current_page, total_pages, total_count, per_page) when it names one.
   */
  | { readonly kind: "page"; readonly schema: Schema.Schema.Any; readonly meta?: "webhook" }
  /**
   * The handler returns `{ value, created }`: `{ data: value }` with the row's status (201) when
   * created, 200 when an earlier request made it (a business idempotency key).
   */
  | { readonly kind: "created-or-existing"; readonly schema: Schema.Schema.Any }
  /** No body (204). */
  | { readonly kind: "empty" }
  /**
   * The handler returns a {@link FileResponse}: its bytes as the body, with its media type,
   * `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`. `contentTypes` are
   * the media types it may have, for the document.
   */
  | { readonly kind: "file"; readonly contentTypes: ReadonlyArray<string> }
  /** The handler's value as the whole body (health, the OpenAPI document). */
  | { readonly kind: "raw"; readonly schema: Schema.Schema.Any }
  /**
   * The handler returns an {@link HttpAnswer}: its status, headers and body sent as they are,
   * for a protocol with statuses and media types of its own (GraphQL over HTTP). `schema`
   * describes the body, for the document.
   */
  | { readonly kind: "answer"; readonly schema: Schema.Schema.Any }

/** What an `answer` route's handler returns: the whole answer. */
export interface HttpAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The body's text; null for none. */
  readonly body: string | null
}

/** What a `file` route's handler returns: bytes to download. */
export interface FileResponse {
  /** The media type sent as `Content-Type`. */
  readonly contentType: string
  /** The name offered in `Content-Disposition` (any characters: it is encoded there safely). */
  readonly fileName: string
  /** The number of bytes, sent as `Content-Length`. */
  readonly size: number
  readonly bytes: AsyncIterable<Uint8Array>
}

/** A route whose body is a `multipart/form-data` upload of one file. */
export interface UploadSpec {
  /** The form's fields, for the document (the file with `format: binary`). */
  readonly form: Schema.Schema.Any
  /** The largest file in bytes; a larger one, or a body declared larger, is answered 413. */
  readonly maxFileBytes: number
}

interface RouteBase {
  readonly method: HttpMethod
  /** OpenAPI-style path: `/api/v1/companies/{cid}/entities/{id}`. */
  readonly path: string
  /** Unique; the OpenAPI `operationId` and the Koa route name. */
  readonly operationId: string
  readonly summary: string
  /** OpenAPI tag that groups the route. */
  readonly tag: string
  /** The body schema; the route then parses a JSON body (the engine validates it with this schema). */
  readonly request?: Schema.Schema.Any
  /** Largest JSON body of this route in bytes, when smaller than the app's (`bodyLimitBytes`). */
  readonly maxBodyBytes?: number
  /** The body is a file upload (`multipart/form-data`) instead of JSON; see {@link UploadSpec}. */
  readonly upload?: UploadSpec
  /**
   * The query parameters besides paging, as a struct of one schema per parameter (optional ones
   * with `Schema.optional`). Documentation only: the engine reads and validates the raw query.
   */
  readonly query?: Schema.Schema.Any
  /** The paging policy when the route is a paged list (`page` and `per_page` query parameters). */
  readonly paging?: PagePolicy
  readonly response: RouteResponse
  /** The success status. */
  readonly status: 200 | 201 | 202 | 204
  /** Error statuses the route can answer, for the document. */
  readonly errors: ReadonlyArray<number>
  /**
   * Error statuses whose body has the success's schema, not the error's (readiness's 503), each
   * with its example, for the document.
   */
  readonly errorsLikeSuccess?: Readonly<Record<number, unknown>>
  /**
   * `webhook`: the route answers its own validation and not-found errors as
   * `{ error: { code, message, details } }` (the webhook endpoint routes); every other error,
   * and every other route, in the general `{ errors: [...] }`.
   */
  readonly errorShape?: "webhook"
  /**
   * The rate limit that counts calls of this route (DECISIONS "Rate limits"): `general` for an
   * authenticated route unless set; a public route is limited only when it says so.
   */
  readonly rateLimit?: RouteRateLimit
}

/**
 * The rate limits a row can name. `sessions` counts `POST /api/v1/sessions` per API key and per
 * client address; every other one per API key and workspace.
 */
export type RouteRateLimit = "general" | "quotes" | "payments" | "multi_currency" | "sessions"

/** A route that needs a bearer token. */
export interface AuthenticatedRoute extends RouteBase {
  readonly auth: "bearer"
  readonly handle: (call: RouteCall) => Promise<unknown>
}

/** A route open to anyone. */
export interface PublicRoute extends RouteBase {
  readonly auth: "none"
  readonly handle: (call: PublicRouteCall) => Promise<unknown>
}

/**
 * One row of the route table. The same rows register the Koa routes and produce the OpenAPI
 * document, so a new endpoint is one new row.
 *
 * @example
 * const row: RouteSpec = {
 *   method: "GET", path: "/api/v1/companies/{id}", operationId: "getCompany", summary: "Fetch a company",
 *   tag: "Companies", auth: "bearer", response: { kind: "data", schema: Company }, status: 200,
 *   errors: [401, 404], handle: ({ engine, actor, pathId }) => engine.companies.get(actor, pathId("id", CompanyId)),
 * }
 */
export type RouteSpec = AuthenticatedRoute | PublicRoute

/**
 * True when the route accepts an `Idempotency-Key` header: every authenticated POST and PATCH.
 *
 * @example
 * apiRoutes.filter(acceptsIdempotencyKey).map((route) => route.operationId) // ["createCompany", ...]
 */
export const acceptsIdempotencyKey = (route: RouteSpec): boolean =>
  route.auth === "bearer" && (route.method === "POST" || route.method === "PATCH")

/**
 * The rate limit that counts calls of a route, or undefined when none does (health, the
 * OpenAPI document).
 *
 * @example
 * declare const createQuoteRow: RouteSpec
 * rateLimitOf(createQuoteRow) // "quotes"
 */
export const rateLimitOf = (route: RouteSpec): RouteRateLimit | undefined =>
  route.rateLimit ?? (route.auth === "bearer" ? "general" : undefined)

/**
 * The names of a path's `{parameters}`, in order.
 *
 * @example
 * pathParameters("/api/v1/companies/{cid}/entities/{id}") // ["cid", "id"]
 */
export const pathParameters = (path: string): ReadonlyArray<string> =>
  [...path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[1] as string)

/**
 * The Koa router form of an OpenAPI-style path: `{id}` becomes `:id`.
 *
 * @example
 * koaPath("/api/v1/companies/{id}") // "/api/v1/companies/:id"
 */
export const koaPath = (path: string): string => path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ":$1")

/** Error statuses common to every authenticated route. */
export const authErrors = [401] as const
/** Error statuses of a route that reads a JSON body, or a form. */
export const bodyErrors = [400, 413, 415] as const
/** Error statuses added by the `Idempotency-Key` header. */
export const idempotencyErrors = [409, 422] as const
