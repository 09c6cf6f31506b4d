import { Readable } from "node:stream"
import { Router, type RouterContext } from "@koa/router"
import type { Engine, Page } from "@payments-engine/core"
import type { Logger } from "pino"
import type { AppContext, AppMiddleware, AppState } from "../app-state.ts"
import type { BearerTokens } from "../bearer-tokens.ts"
import { httpErrors } from "../http-error.ts"
import type { AppMetrics } from "../metrics/app-metrics.ts"
import { bearerTokenOf, requireActor } from "../middleware/authentication.ts"
import { idempotency } from "../middleware/idempotency.ts"
import { jsonBody } from "../middleware/json-body.ts"
import { multipartForm } from "../middleware/multipart-form.ts"
import {
  apiKeyAndAddressOfBody,
  apiKeyOfCaller,
  clientAddress,
  failedAttemptLimit,
  rateLimit,
} from "../middleware/rate-limit.ts"
import { type UploadLimits, uploadSlots } from "../middleware/upload-slots.ts"
import { pagingLinks } from "../paging-links.ts"
import type { RateLimitName } from "../rate-limits/rate-limit-settings.ts"
import type { RateLimiting } from "../rate-limits/rate-limiting.ts"
import type { ReadinessReport } from "../readiness.ts"
import { webhookBodyValidation, webhookErrorRendering, webhookPageMeta } from "../webhook-errors.ts"
import { attachmentDisposition } from "./content-disposition.ts"
import {
  acceptsIdempotencyKey,
  type FileResponse,
  type HttpAnswer,
  koaPath,
  type PublicRouteCall,
  type RouteRateLimit,
  type RouteSpec,
  rateLimitOf,
  type UncheckedBody,
} from "./route-table.ts"

/** What the registered routes need. */
export interface RouteDependencies {
  /** Where a host mounts the app ("" at its root, the default): put back in front of the paging links. */
  readonly mountPath?: string
  readonly engine: Engine
  readonly tokens: BearerTokens
  readonly logger: Logger
  /** The OpenAPI document, for the route that serves it. */
  readonly openApi: () => unknown
  /** What `GET /ready` reports. */
  readonly readiness: () => Promise<ReadinessReport>
  /** Largest JSON body in bytes (1 MB by default). */
  readonly bodyLimitBytes?: number
  /** Counts requests against the rate limits the rows name. */
  readonly rateLimiting: RateLimiting
  /** Told of idempotent replays and refusals, when given. */
  readonly metrics?: AppMetrics
  /** Uploads in progress at once, per API key and in all; {@link defaultUploadLimits} when absent. */
  readonly uploadLimits?: UploadLimits
  /** Where uploads are spooled while their request runs; the system's temporary directory when absent. */
  readonly uploadSpoolDirectory?: string
}

/** The route table's middleware and routers, and which matches need no token. */
export interface RegisteredRoutes {
  /** The middleware that runs the row a request reaches, or calls `next` when it reaches none. */
  readonly routes: AppMiddleware
  /**
   * The routers `routes` dispatches to, one for each number of path segments (a request is
   * matched only against rows as long as its path, a few instead of the whole table).
   */
  readonly routers: ReadonlyArray<Router<AppState>>
  /** True when `method` and `path` reach a row with `auth: "none"`. */
  readonly isPublic: (method: string, path: string) => boolean
}

const render = (ctx: AppContext, route: RouteSpec, value: unknown, mountPath: string): void => {
  const response = route.response
  switch (response.kind) {
    case "data": {
      const echoed = Object.fromEntries(
        Object.keys(response.echo ?? {}).map((name) => [name, (value as Record<string, unknown>)[name]]),
      )
      ctx.status = route.status
      ctx.body = { data: value, ...echoed }
      return
    }
    case "page": {
      const page = value as Page<unknown>
      ctx.status = route.status
      const meta = response.meta === "webhook" ? webhookPageMeta(page) : page.meta
      ctx.body = { data: page.data, meta, links: pagingLinks(`${mountPath}${ctx.path}`, ctx.querystring, page) }
      return
    }
    case "created-or-existing": {
      const outcome = value as { readonly value: unknown; readonly created: boolean }
      ctx.status = outcome.created ? route.status : 200
      ctx.body = { data: outcome.value }
      return
    }
    case "empty":
      ctx.body = null
      ctx.status = 204
      return
    case "raw":
      ctx.status = route.status
      ctx.body = value
      return
    case "answer": {
      const answer = value as HttpAnswer
      ctx.status = answer.status
      // Headers first: Koa types a string body as text/plain unless a Content-Type is set.
      for (const [name, header] of Object.entries(answer.headers)) ctx.set(name, header)
      ctx.body = answer.body
      return
    }
    case "file": {
      const file = value as FileResponse
      ctx.status = route.status
      ctx.type = file.contentType
      ctx.set("Content-Disposition", attachmentDisposition(file.fileName))
      ctx.set("X-Content-Type-Options", "nosniff")
      ctx.body = Readable.from(file.bytes, { objectMode: false })
      // Koa drops the length for a stream body: set it after.
      ctx.length = file.size
      return
    }
  }
}

const handler =
  (route: RouteSpec, dependencies: RouteDependencies): AppMiddleware =>
  async (ctx) => {
    const params = (ctx as RouterContext<AppState>).params ?? {}
    // No stored id holds U+0000, and Postgres refuses it in a query: such a path names nothing.
    if (Object.values(params).some((value) => value.includes("\u0000"))) throw httpErrors.notFound()
    const call: PublicRouteCall = {
      engine: dependencies.engine,
      tokens: dependencies.tokens,
      param: (name) => params[name] ?? "",
      pathId: (name, kind) => kind.make(params[name] ?? ""),
      query: ctx.query,
      header: (name) => ctx.get(name) || undefined,
      body: ctx.state.body as UncheckedBody,
      form: ctx.state.form,
      openApi: dependencies.openApi,
      readiness: dependencies.readiness,
    }
    const value =
      route.auth === "bearer" ? await route.handle({ ...call, actor: requireActor(ctx) }) : await route.handle(call)
    render(ctx, route, value, dependencies.mountPath ?? "")
  }

/** The handler of a row in the router that only tells which requests are public: it is never used. */
const notMeantToRun: AppMiddleware = () => {
  throw new Error("registerRoutes: the router of public rows only matches")
}

/** The limit of each row category counted per API key and workspace. */
const limitOfCategory: { readonly [K in Exclude<RouteRateLimit, "sessions">]: RateLimitName } = {
  general: "general",
  quotes: "quotes",
  payments: "payments",
  multi_currency: "multiCurrency",
}

/**
 * The bearer check of an authenticated row: `authentication` has already checked every `/api`
 * request; a row outside `/api` (`POST /graphql`) has its token checked here, with the same 401.
 */
const authenticated =
  (tokens: BearerTokens): AppMiddleware =>
  async (ctx, next) => {
    if (ctx.state.actor === undefined) {
      const token = bearerTokenOf(ctx.get("Authorization") || undefined)
      const actor = token === undefined ? undefined : await tokens.verify(token)
      if (actor !== undefined) ctx.state.actor = actor
    }
    requireActor(ctx)
    return next()
  }

/**
 * The segments of a path as the router counts them: a trailing slash adds none, since a row's
 * path also matches with one. Each parameter of a row matches exactly one non-empty segment.
 */
const segmentCount = (path: string): number => {
  let slashes = 0
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) slashes++
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? slashes - 1 : slashes
}

/**
 * Registers every row of the route table in Koa routers, one for each number of path segments
 * (case-sensitive paths): bearer check,
 * the row's rate limit (before the body is read, so a refused request costs little; sessions
 * count per client address first, then their failures per `api_key` and address once the body is
 * parsed), JSON body for
 * rows with a request schema (a `multipart/form-data` form, within its file limit, for rows with an upload), `Idempotency-Key` for authenticated POST and PATCH, then the handler, whose value is rendered as the row says (`{ data }`, a page with `meta` and
 * `links`, 204, or as is).
 *
 * @example
 * const rateLimits = rateLimiting(memoryRateLimitStore(), rateLimitSettings())
 * const readiness = async () => readinessReport({ shutdown: true })
 * const { routes, isPublic } = registerRoutes(apiRoutes, { engine, tokens, logger, openApi: () => openApiDocument(apiRoutes), rateLimiting: rateLimits, readiness })
 * app.use(authentication({ tokens, isPublic })).use(routes)
 */
export const registerRoutes = (routes: ReadonlyArray<RouteSpec>, dependencies: RouteDependencies): RegisteredRoutes => {
  const bySegments = new Map<number, Router<AppState>>()
  const routerFor = (path: string) => {
    const count = segmentCount(path)
    const known = bySegments.get(count)
    if (known !== undefined) return known
    const router = new Router<AppState>({ sensitive: true })
    bySegments.set(count, router)
    return router
  }
  // The public rows again, on their own: authentication asks of every /api request whether it is
  // public, and matching three rows costs a twentieth of matching the whole table.
  const publicRows = new Router<AppState>({ sensitive: true })
  const names = new Set<string>()
  // One count for every upload route of the app: a process's uploads in progress, by key and in all.
  const slots = uploadSlots(dependencies.uploadLimits)
  for (const route of routes) {
    if (names.has(route.operationId)) throw new Error(`registerRoutes: duplicate operationId ${route.operationId}`)
    names.add(route.operationId)
    if (route.auth === "none") publicRows.register(koaPath(route.path), [route.method], [notMeantToRun])
    const chain: Array<AppMiddleware> = []
    if (route.auth === "bearer") chain.push(authenticated(dependencies.tokens))
    const category = rateLimitOf(route)
    const limiting = dependencies.rateLimiting
    if (category === "sessions") chain.push(rateLimit(limiting, "sessionsPerAddress", clientAddress))
    else if (category !== undefined) chain.push(rateLimit(limiting, limitOfCategory[category], apiKeyOfCaller))
    if (route.request !== undefined) {
      const limits = [dependencies.bodyLimitBytes, route.maxBodyBytes].filter((limit) => limit !== undefined)
      const reader = jsonBody(limits.length === 0 ? {} : { limitBytes: Math.min(...limits) })
      chain.push(route.errorShape === "webhook" ? webhookBodyValidation(reader) : reader)
    }
    // An upload's own limit (10 MiB for attachments) replaces the JSON one on its route only.
    if (route.upload !== undefined)
      chain.push(
        multipartForm({
          maxFileBytes: route.upload.maxFileBytes,
          slots,
          ...(dependencies.uploadSpoolDirectory === undefined
            ? {}
            : { spoolDirectory: dependencies.uploadSpoolDirectory }),
        }),
      )
    if (category === "sessions") chain.push(failedAttemptLimit(limiting, "failedSessions", apiKeyAndAddressOfBody))
    if (acceptsIdempotencyKey(route))
      chain.push(
        idempotency({
          engine: dependencies.engine,
          logger: dependencies.logger,
          ...(dependencies.metrics === undefined ? {} : { metrics: dependencies.metrics }),
        }),
      )
    if (route.errorShape === "webhook") chain.push(webhookErrorRendering)
    chain.push(handler(route, dependencies))
    const path = koaPath(route.path)
    routerFor(path).register(path, [route.method], chain, { name: route.operationId })
  }
  const isPublic = (method: string, path: string) => publicRows.match(path, method).pathAndMethod.length > 0
  // A router's middleware is typed for the context it makes (with `params`), as `app.use` takes it.
  const dispatch = new Map(
    [...bySegments].map(([count, router]) => [count, router.routes() as unknown as AppMiddleware]),
  )
  const dispatching: AppMiddleware = (ctx, next) => {
    const reached = dispatch.get(segmentCount(ctx.path))
    return reached === undefined ? next() : reached(ctx, next)
  }
  return { routes: dispatching, routers: [...bySegments.values()], isPublic }
}
