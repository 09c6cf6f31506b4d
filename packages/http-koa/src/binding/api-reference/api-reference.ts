import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import Router from "@koa/router"
import type { Context } from "koa"
import type { AppState } from "../app-state.ts"
import { html, renderDocument } from "../hosted/html.ts"

/**
 * `GET /docs`: the API reference, Swagger UI (`swagger-ui-dist`, from the npm registry) rendering
 * `GET /openapi.json`, every file served by the binding itself, so the page works offline. The
 * page's own start-up script is served as a file too: the CSP allows scripts from this server only.
 * `GET /` answers links to the reference, the document and the health check.
 */

const swaggerUiFolder = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))

/** The files the page loads, read once when the router is made, by the path they are served at. */
const assets = (mountPath: string): ReadonlyMap<string, { readonly type: string; readonly body: string }> =>
  new Map([
    ["/docs/swagger-ui.css", { type: "text/css; charset=utf-8", body: read(join(swaggerUiFolder, "swagger-ui.css")) }],
    [
      "/docs/swagger-ui-bundle.js",
      { type: "text/javascript; charset=utf-8", body: read(join(swaggerUiFolder, "swagger-ui-bundle.js")) },
    ],
    ["/docs/start.js", { type: "text/javascript; charset=utf-8", body: startScript(mountPath) }],
  ])

const read = (path: string) => readFileSync(path, "utf8")

/** Starts Swagger UI on the service's own document; served as a file, since the CSP allows no inline script. */
const startScript = (mountPath: string) => `window.addEventListener("load", () => {
  window.SwaggerUIBundle({
    url: ${JSON.stringify(`${mountPath}/openapi.json`)},
    dom_id: "#reference",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  })
})
`

/**
 * Swagger UI sets inline styles on its elements, and shows the document's images as data URLs;
 * nothing is fetched from anywhere but this server.
 */
const docsPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

/** The reference page, its files linked under the mount path. */
const referencePage = (mountPath: string) =>
  renderDocument(
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>payments-engine API reference</title>
        <link rel="stylesheet" href=${`${mountPath}/docs/swagger-ui.css`} />
      </head>
      <body>
        <div id="reference"></div>
        <noscript
          >The reference needs JavaScript. The document itself is at
          <a href=${`${mountPath}/openapi.json`}>${mountPath}/openapi.json</a>.</noscript
        >
        <script src=${`${mountPath}/docs/swagger-ui-bundle.js`}></script>
        <script src=${`${mountPath}/docs/start.js`}></script>
      </body>
    </html>`,
  )

/** The links of `GET /`, under the mount path. */
const homeLinksOf = (mountPath: string) => ({
  links: { docs: `${mountPath}/docs`, openapi: `${mountPath}/openapi.json`, health: `${mountPath}/health` },
})

const homePage = (links: ReturnType<typeof homeLinksOf>["links"]) =>
  renderDocument(
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>payments-engine</title>
      </head>
      <body>
        <h1>payments-engine</h1>
        <ul>
          <li><a href=${links.docs}>API reference</a></li>
          <li><a href=${links.openapi}>OpenAPI document</a></li>
          <li><a href=${links.health}>Health</a></li>
        </ul>
      </body>
    </html>`,
  )

/** Options of {@link apiReference}. */
export interface ApiReferenceOptions {
  /** Where a host mounts the app ("" at its root), in front of every link the pages give. */
  readonly mountPath?: string
}

/**
 * The router of `GET /`, `GET /docs` and the reference's files.
 *
 * @example
 * app.use(apiReference().routes())
 */
export const apiReference = (options: ApiReferenceOptions = {}): Router<AppState> => {
  const mountPath = options.mountPath ?? ""
  const router = new Router<AppState>()
  const files = assets(mountPath)
  const homeLinks = homeLinksOf(mountPath)
  const home = homePage(homeLinks.links)
  const page = referencePage(mountPath)
  const htmlAnswer = (ctx: Context, body: string) => {
    ctx.set("Content-Security-Policy", docsPolicy)
    ctx.set("X-Content-Type-Options", "nosniff")
    ctx.type = "text/html; charset=utf-8"
    ctx.body = body
  }
  router.get("/", (ctx) => {
    if (ctx.accepts("html", "json") === "json") {
      ctx.body = homeLinks
      return
    }
    htmlAnswer(ctx, home)
  })
  router.get("/docs", (ctx) => htmlAnswer(ctx, page))
  for (const [path, file] of files) {
    router.get(path, (ctx) => {
      ctx.set("X-Content-Type-Options", "nosniff")
      ctx.set("Cache-Control", "public, max-age=3600")
      ctx.type = file.type
      ctx.body = file.body
    })
  }
  return router
}
