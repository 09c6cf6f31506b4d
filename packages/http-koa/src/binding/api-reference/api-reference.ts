import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import Router from "@koa/router"
import type { Context } from "koa"
import type { AppState } from "../app-state.ts"
import { html, renderDocument } from "../hosted/html.ts"

/**
 * `GET /docs`: the API reference, Swagger UI rendering `GET /openapi.json`, every file served by
 * the binding itself, so the page works offline. The page's own start-up script is served as a
 * file too: the CSP allows scripts from this server only. `GET /` answers links to the reference,
 * the document and the health check.
 */

/**
 * Swagger UI's files: the copy the build puts beside this module in the published package, else
 * (in the repository, running from source) `swagger-ui-dist`, a dev dependency only. Depending on
 * it would bring its `@scarf/scarf`, whose postinstall reports every install of ours.
 */
const swaggerUiFolder = (() => {
  const bundled = fileURLToPath(new URL("./swagger-ui/", import.meta.url))
  return existsSync(join(bundled, "swagger-ui-bundle.js"))
    ? bundled
    : dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))
})()

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

/**
 * Starts Swagger UI on the service's own document, and signs it in with an API key: the service
 * takes a bearer token from `POST /api/v1/sessions` (key and secret), which Swagger UI's own
 * Authorize box cannot ask for, so the page's form exchanges them and hands Swagger UI the token.
 * Served as a file, since the CSP allows no inline script.
 */
const startScript = (mountPath: string) => `window.addEventListener("load", () => {
  const ui = window.SwaggerUIBundle({
    url: ${JSON.stringify(`${mountPath}/openapi.json`)},
    dom_id: "#reference",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  })
  const form = document.getElementById("authorize")
  const status = document.getElementById("authorize-status")
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    const fields = new FormData(form)
    status.textContent = "Authorizing..."
    try {
      const response = await fetch(${JSON.stringify(`${mountPath}/api/v1/sessions`)}, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ api_key: fields.get("api_key"), api_secret: fields.get("api_secret") }),
      })
      const body = await response.json().catch(() => ({}))
      if (!response.ok) {
        const problems = (body.errors || []).map((e) => e.field + ": " + e.message).join("; ")
        status.textContent = "Not authorized (" + response.status + "): " + (problems || response.statusText)
        return
      }
      ui.preauthorizeApiKey("bearerAuth", body.data.access_token)
      form.elements.api_secret.value = ""
      status.textContent =
        "Authorized as " + fields.get("api_key") + " until " + new Date(body.data.expires_at).toLocaleTimeString() +
        ": Try it out sends the bearer token."
    } catch {
      status.textContent = "Not authorized: the service could not be reached."
    }
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
        <style>
          .authorize-with-key { font-family: sans-serif; max-width: 1420px; margin: 1em auto; padding: 0 20px; }
          .authorize-with-key label { margin-right: 1em; }
          .authorize-with-key input { margin-left: 0.4em; }
        </style>
      </head>
      <body>
        <form id="authorize" class="authorize-with-key" autocomplete="off">
          <strong>Authorize with an API key</strong>
          <p>
            The API takes a bearer token exchanged for an API key and its secret at
            <code>POST /api/v1/sessions</code>; this form does it for Try it out.
          </p>
          <label>API key <input name="api_key" required /></label>
          <label>API secret <input name="api_secret" type="password" required /></label>
          <button type="submit">Authorize</button>
          <p id="authorize-status" role="status"></p>
        </form>
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
