import type { Engine } from "@payments-engine/core"
import Koa from "koa"
import type { Logger } from "pino"
import type { AppState } from "./app-state.ts"
import type { BearerTokens } from "./bearer-tokens.ts"
import { httpErrors } from "./http-error.ts"
import { createLogger } from "./logger.ts"
import { accessLog } from "./middleware/access-log.ts"
import { authentication } from "./middleware/authentication.ts"
import { errorRendering } from "./middleware/error-rendering.ts"
import { requestId } from "./middleware/request-id.ts"
import { type OpenApiDocument, type OpenApiOptions, openApiDocument } from "./openapi/openapi-document.ts"
import { apiRoutes } from "./routes/api-routes.ts"
import { registerRoutes } from "./routes/register-routes.ts"
import type { RouteSpec } from "./routes/route-table.ts"

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
}

/**
 * The Koa app of the API. Middleware, outermost first: request id, access log, error rendering,
 * bearer authentication (before routing, for every `/api` path but the public rows), the route
 * table, and a 404 `path` / `Not found` for everything else (unknown paths and methods alike).
 *
 * @example
 * const engine = createServiceEngine({
 *   storage: await openSqliteStorage({ filename: ":memory:" }),
 *   serverSecret: { read: async () => secret },
 * })
 * const app = createApp({ engine, tokens: bearerTokens({ secret }) })
 * app.listen(3000)
 */
export const createApp = (options: AppOptions): Koa<AppState> => {
  const logger = options.logger ?? createLogger()
  const routes = options.routes ?? apiRoutes
  let document: OpenApiDocument | undefined
  const openApi = () => {
    document ??= openApiDocument(routes, options.openApi)
    return document
  }
  const { router, isPublic } = registerRoutes(routes, {
    engine: options.engine,
    tokens: options.tokens,
    logger,
    openApi,
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
  })
  const app = new Koa<AppState>()
  app.silent = true
  app.on("error", (error: unknown) => logger.error({ err: error }, "response failed"))
  const isClosing = options.isClosing
  if (isClosing !== undefined) {
    app.use(async (ctx, next) => {
      await next()
      if (isClosing()) ctx.set("Connection", "close")
    })
  }
  app
    .use(requestId())
    .use(accessLog(logger))
    .use(errorRendering(logger))
    .use(authentication({ tokens: options.tokens, isPublic }))
    .use(router.routes())
    .use(async () => {
      throw httpErrors.notFound()
    })
  return app
}
