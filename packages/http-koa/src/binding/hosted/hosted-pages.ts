import { readFileSync } from "node:fs"
import Router from "@koa/router"
import type { Engine } from "@payments-engine/core"
import type { Context, Next } from "koa"
import type { Logger } from "pino"
import type { AppState } from "../app-state.ts"
import { errorLogFields } from "../error-log-fields.ts"
import { entityFeatureRoutes } from "./entity-feature.ts"
import { fundingAccountsRoutes } from "./funding-accounts.ts"
import { makeHostedKit, setSecurityHeaders } from "./kit.ts"
import { recipientBankAccountRoutes } from "./recipient-bank-account.ts"
import { messagePage } from "./views/frame.ts"

/**
 * The hosted pages (DECISIONS "Hosted pages"), served by the Koa binding under the path of
 * `PAYMENTS_HOSTED_URL`: plain server-rendered HTML forms that work without JavaScript, one
 * module of routes per page, sharing the checks and headers of `kit.ts`. A POST that succeeds
 * redirects (303) to a GET.
 */

const css = readFileSync(new URL("./hosted.css", import.meta.url), "utf8")

/** The first segment of every page's paths, which is the pages' alone when they share the root with the API. */
const pageRoots = ["/funding-accounts", "/recipient", "/entity-feature", "/hosted.css"]

/** Options of {@link hostedPages}. */
export interface HostedPagesOptions {
  readonly engine: Engine
  /** The path the pages are reached at (the path of `PAYMENTS_HOSTED_URL`): "" or "/pay", no trailing slash. */
  readonly basePath: string
  /**
   * Where a host mounts the app ("" at its root), the start of `basePath`: the host takes it off
   * the URL, so the pages are routed without it and link with it.
   */
  readonly mountPath?: string
  /** Where a page that broke is logged. */
  readonly logger: Logger
}

/**
 * The router of the hosted pages, to mount in the app before the 404.
 *
 * @example
 * app.use(hostedPages({ engine, logger, basePath: new URL(config.hostedUrl).pathname.replace(/\/+$/, "") }).routes())
 */
export const hostedPages = (options: HostedPagesOptions): Router<AppState> => {
  const { engine, basePath, logger } = options
  const router = new Router<AppState>()
  const kit = makeHostedKit(engine, basePath, options.mountPath ?? "")

  /** A page that broke answers an HTML 500 with the same headers, and is logged as a defect. */
  router.use(async (ctx: Context, next: Next) => {
    try {
      await next()
    } catch (error) {
      logger.error({ request_id: ctx.state.requestId, err: errorLogFields(error) }, "hosted page failed")
      kit.render(
        ctx,
        500,
        messagePage(
          kit.frame(ctx, "Something went wrong"),
          "Something went wrong",
          "Nothing more was changed. Please try again in a moment.",
        ),
      )
    }
  })

  router.get(kit.route(kit.cssHref), (ctx) => {
    setSecurityHeaders(ctx)
    ctx.set("Cache-Control", "public, max-age=3600")
    ctx.type = "text/css; charset=utf-8"
    ctx.body = css
  })

  fundingAccountsRoutes(router, kit)
  recipientBankAccountRoutes(router, kit)
  entityFeatureRoutes(router, kit)

  // Registered last, so a page's own route answers first: what no page serves under the pages'
  // path (every path under it, or, when that is the root the API shares, under each page) is a
  // page too, not the API's JSON.
  const notFound = (ctx: Context) =>
    kit.render(
      ctx,
      404,
      messagePage(
        kit.frame(ctx, "Page not found"),
        "This page does not exist",
        "Please check the link, or ask for a new one from the service that sent you here.",
      ),
    )
  const prefixes = kit.route(basePath) === "" ? pageRoots.map((root) => kit.path(root)) : [basePath]
  for (const prefix of prefixes) router.all(`${kit.route(prefix)}{/*rest}`, notFound)
  return router
}
