import type { TracerProvider } from "@opentelemetry/api"
import { memoryRateLimitStore } from "@payments-engine/adapters"
import type { Engine, RateLimitStore } from "@payments-engine/core"
import Koa from "koa"
import type { Logger } from "pino"
import { apiReference } from "./api-reference/api-reference.ts"
import type { AppState } from "./app-state.ts"
import type { BearerTokens } from "./bearer-tokens.ts"
import { clientErrorMessage, isHttpParserError } from "./client-errors.ts"
import { errorLogFields } from "./error-log-fields.ts"
import { hostedPages } from "./hosted/hosted-pages.ts"
import { httpErrors } from "./http-error.ts"
import { createLogger } from "./logger.ts"
import { type AppMetrics, requestMetrics } from "./metrics/app-metrics.ts"
import { accessLog } from "./middleware/access-log.ts"
import { authentication } from "./middleware/authentication.ts"
import { errorRendering } from "./middleware/error-rendering.ts"
import { requestId } from "./middleware/request-id.ts"
import type { UploadLimits } from "./middleware/upload-slots.ts"
import { type OpenApiDocument, type OpenApiOptions, openApiDocument } from "./openapi/openapi-document.ts"
import { type RateLimitSettings, rateLimitSettings } from "./rate-limits/rate-limit-settings.ts"
import { type RateLimiting, rateLimiting } from "./rate-limits/rate-limiting.ts"
import { type ReadinessReport, readinessReport } from "./readiness.ts"
import { apiRoutes } from "./routes/api-routes.ts"
import { registerRoutes } from "./routes/register-routes.ts"
import type { RouteSpec } from "./routes/route-table.ts"
import { requestTracing } from "./tracing/request-tracing.ts"

/** The rate limits of {@link createApp} (DECISIONS "Rate limits"). */
export interface RateLimitOptions {
  /** Requests per minute of each limit; the defaults of `defaultRateLimits` for those not given. */
  readonly limits?: Partial<RateLimitSettings>
  /**
   * Where the counters live: this process's memory by default. Give a shared store
   * (`openPostgresRateLimitStore` of `@payments-engine/adapters/postgres`) when several
   * processes serve one API. The caller closes it.
   */
  readonly store?: RateLimitStore
}

/** Options of {@link createApp}. */
export interface AppOptions {
  readonly engine: Engine
  /** Issues and checks bearer tokens; see {@link bearerTokens}. */
  readonly tokens: BearerTokens
  /** Request and error logs; an `info` logger on standard output by default. */
  readonly logger?: Logger
  /** The route table; {@link apiRoutes} by default. */
  readonly routes?: ReadonlyArray<RouteSpec>
  /** Largest JSON body in bytes; 1 MB by default. */
  readonly bodyLimitBytes?: number
  /** Title, version and server URL of the OpenAPI document. */
  readonly openApi?: OpenApiOptions
  /**
   * True once the server is shutting down: answers then carry `Connection: close`, so keep-alive
   * clients reconnect elsewhere and the server can close as soon as requests in flight are done.
   */
  readonly isClosing?: () => boolean
  /**
   * What `GET /ready` reports (see {@link ReadinessReport}); the service checks its database, its
   * migrations, its job runner and its shutdown. Without it, the app reports only whether it is
   * shutting down ({@link isClosing}): the host knows its own database and runner.
   */
  readonly readiness?: () => Promise<ReadinessReport>
  /** The rate limits: the defaults, counted in memory, when absent. */
  readonly rateLimits?: RateLimitOptions
  /**
   * Uploads in progress at once in this app: per API key (past it, 429) and in all (past it,
   * 503), both with `Retry-After`; `defaultUploadLimits` (4 and 32) when absent.
   */
  readonly uploads?: UploadLimits
  /**
   * Where an upload's file is written while its request runs (one file per upload, mode 0600,
   * removed when the request ends): the system's temporary directory by default.
   */
  readonly uploadSpoolDirectory?: string
  /**
   * How many reverse proxies in front of the app each append the address they received from to
   * `X-Forwarded-For`: the client address (`ctx.ip`, which the sessions limit counts) is then the
   * entry that many places from the end. 0 by default: the socket's peer address, and the header
   * is ignored, since any client can write it.
   */
  readonly trustedProxyHops?: number
  /**
   * The URL of the hosted pages (`PAYMENTS_HOSTED_URL`): they are served under its path ("/" when
   * absent, or the {@link mountPath}), by this same app.
   */
  readonly hostedUrl?: string
  /**
   * Where a host server mounts this app, such as `/payments`, when not at its root. The host
   * takes it off the URL before the app sees the request (see docs/embedding.md); the app puts it
   * back in the URLs it answers with: the `links` of lists, the links of `GET /` and of the API
   * reference, the OpenAPI document's `servers` (unless `openApi.serverUrl` says otherwise), and
   * the hosted pages' links, whose `hostedUrl` path must then start with it. "" (the root) by
   * default.
   */
  readonly mountPath?: string
  /**
   * Told of each request (route template, status, duration), each rate-limit refusal and each
   * idempotent replay or refusal; nothing is measured when absent. The service binds it to
   * prom-client (`serviceMetrics`), served on its own port.
   */
  readonly metrics?: AppMetrics
  /**
   * Where each request's server span goes (see {@link requestTracing}); no span when absent. Give
   * the engine the same provider (`openTelemetryTracing` of the adapters), so its use cases are
   * the requests' children.
   */
  readonly tracerProvider?: TracerProvider
}

/**
 * The Koa app of the API. Middleware, outermost first: request id, metrics and the request's span
 * (when asked for), access log, error rendering,
 * bearer authentication (before routing, for every `/api` path but the public rows), the route
 * table (each row counted against its rate limit, see `registerRoutes`), and a 404 `path` / `Not found` for everything else (unknown paths and methods alike).
 *
 * @example
 * const engine = createServiceEngine({
 *   storage: await openSqliteStorage({ filename: ":memory:" }),
 *   serverSecret: { read: async () => secret },
 * })
 * const app = createApp({ engine, tokens: bearerTokens({ secret, confirm: (claims) => engine.access.tokenActor(claims) }) })
 * app.listen(3000)
 */
export const createApp = (options: AppOptions): Koa<AppState> => {
  const logger = options.logger ?? createLogger()
  const routes = options.routes ?? apiRoutes
  const mountPath = checkedMountPath(options.mountPath ?? "")
  const hostedPath = hostedPublicPath(options.hostedUrl, mountPath)
  let document: OpenApiDocument | undefined
  const openApi = () => {
    document ??= openApiDocument(
      routes,
      mountPath === "" || options.openApi?.serverUrl !== undefined
        ? options.openApi
        : { ...options.openApi, serverUrl: mountPath },
    )
    return document
  }
  const { routes: routeTable, isPublic } = registerRoutes(routes, {
    mountPath,
    engine: options.engine,
    tokens: options.tokens,
    logger,
    openApi,
    readiness: options.readiness ?? (async () => readinessReport({ shutdown: options.isClosing?.() !== true })),
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
    ...(options.uploads === undefined ? {} : { uploadLimits: options.uploads }),
    ...(options.uploadSpoolDirectory === undefined ? {} : { uploadSpoolDirectory: options.uploadSpoolDirectory }),
    rateLimiting: countedRefusals(
      rateLimiting(options.rateLimits?.store ?? memoryRateLimitStore(), rateLimitSettings(options.rateLimits?.limits)),
      options.metrics,
    ),
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
  })
  const hops = options.trustedProxyHops ?? 0
  if (!Number.isSafeInteger(hops) || hops < 0) {
    throw new RangeError(`createApp: trustedProxyHops must be a whole number, got ${hops}`)
  }
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops })
  app.silent = true
  // Koa reports here what broke after the answer was chosen, such as a parser error on the socket:
  // that one is the client's doing, not the service's, so it is no `error`.
  app.on("error", (error: unknown, ctx?: { state?: Partial<AppState> }) => {
    const fields = { request_id: ctx?.state?.requestId, err: errorLogFields(error) }
    if (isHttpParserError(error)) logger.info(fields, clientErrorMessage)
    else logger.error(fields, "response failed")
  })
  const isClosing = options.isClosing
  if (isClosing !== undefined) {
    app.use(async (ctx, next) => {
      await next()
      if (isClosing()) ctx.set("Connection", "close")
    })
  }
  app.use(requestId())
  if (options.metrics !== undefined) app.use(requestMetrics(options.metrics))
  if (options.tracerProvider !== undefined) app.use(requestTracing(options.tracerProvider))
  app
    .use(accessLog(logger))
    .use(errorRendering(logger))
    .use(authentication({ tokens: options.tokens, isPublic }))
    .use(routeTable)
    .use(apiReference({ mountPath }).routes())
    .use(hostedPages({ engine: options.engine, basePath: hostedPath, mountPath, logger }).routes())
    .use(async () => {
      throw httpErrors.notFound()
    })
  return app
}

/** `limiting`, telling `metrics` of each request it refuses. */
const countedRefusals = (limiting: RateLimiting, metrics: AppMetrics | undefined): RateLimiting =>
  metrics === undefined
    ? limiting
    : {
        ...limiting,
        consume: async (name, key) => {
          const outcome = await limiting.consume(name, key)
          if (outcome.retryAfterSeconds !== undefined) metrics.rateLimited(name)
          return outcome
        },
      }

/** A mount path as {@link AppOptions.mountPath} takes it: "" or `/a/b`, no trailing slash, query or fragment. */
const checkedMountPath = (mountPath: string): string => {
  if (mountPath === "" || /^(\/[^/?#\s]+)+$/.test(mountPath)) return mountPath
  throw new RangeError(
    `createApp: mountPath must be "" or a path such as "/payments" (no trailing slash), got ${JSON.stringify(mountPath)}`,
  )
}

/**
 * The path the hosted pages are reached at, as their links show it: that of `hostedUrl` without
 * its trailing slash, or the mount path when `hostedUrl` is absent. It is under the mount path,
 * since this app serves them.
 */
const hostedPublicPath = (hostedUrl: string | undefined, mountPath: string): string => {
  const path = hostedUrl === undefined ? mountPath : new URL(hostedUrl).pathname.replace(/\/+$/, "")
  if (path !== mountPath && !path.startsWith(`${mountPath}/`)) {
    throw new RangeError(
      `createApp: the path of hostedUrl (${JSON.stringify(path)}) must start with mountPath (${JSON.stringify(mountPath)}): this app serves the hosted pages`,
    )
  }
  return path
}
