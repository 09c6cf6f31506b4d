import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { openSqliteStorage } from "@payments-engine/adapters"
import { type Actor, CompanyId, type Engine, isDomainError } from "@payments-engine/core"
import {
  apiRoutes,
  bearerTokens,
  createApp,
  createServiceEngine,
  httpStatusOf,
  jobLogTo,
  sandboxRoutes,
} from "@payments-engine/http-koa"
import express from "express"
import { type Logger, pino } from "pino"

/** The workspace the host's own routes act in, and the one its API key opens sessions on. */
export const hostWorkspace = "acme"

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** 3000 by default; 0 picks a free port. */
  readonly port?: number
  /** The host's logger, shared with the payments API and the job runner; pino on standard output by default. */
  readonly logger?: Logger
  /** The SQLite file; in memory by default. */
  readonly filename?: string
  /**
   * Sandbox mode, as the service has it with SQLite (true by default): a test clock per workspace
   * and the helpers under `/api/v1/sandbox` (a funding account linked at once, the clock moved),
   * with which the README's "Paying a recipient" runs through this server.
   */
  readonly sandbox?: boolean
}

/** The host's server, running. */
export interface RunningServer {
  /** `http://localhost:<port>`. */
  readonly url: string
  readonly engine: Engine
  /** A key of {@link hostWorkspace}, for `POST /payments/api/v1/sessions`. */
  readonly apiKey: { readonly api_key: string; readonly api_secret: string }
  /** Stops taking connections, lets the requests in flight end, stops the job runner, closes the storage. */
  close(): Promise<void>
}

/**
 * An Express 5 server that serves the payments API under `/payments` (the Koa app of
 * `@payments-engine/http-koa`) beside its own routes, one of which calls the engine directly;
 * the engine's job runner starts and stops with the server, and every log line goes to the
 * host's logger.
 *
 * @example
 * const server = await startServer({ port: 3000 })
 * process.once("SIGTERM", () => server.close())
 */
export const startServer = async (options: ServerOptions = {}): Promise<RunningServer> => {
  const logger = options.logger ?? pino()
  // Signs bearer tokens and keys idempotency fingerprints. A random one does for a database in
  // memory; with a file, keep one secret outside it and give it to every process.
  const secret = randomBytes(32).toString("base64url")
  const sandbox = options.sandbox ?? true
  const engine = createServiceEngine({
    storage: await openSqliteStorage({ filename: options.filename ?? ":memory:" }),
    serverSecret: { read: async () => secret },
    testClocks: sandbox,
    // Sandbox mode may send webhooks to a receiver on this machine, as the service's does.
    allowLocalWebhookUrls: sandbox,
    jobLog: jobLogTo(logger),
  })
  const workspace = await engine.access.ensureWorkspace(hostWorkspace)
  const apiKey = await engine.access.createApiKey({ workspace: hostWorkspace, scope: "write" })
  const payments = createApp({
    engine,
    routes: sandbox ? [...apiRoutes, ...sandboxRoutes] : apiRoutes,
    tokens: bearerTokens({
      secret,
      confirm: (claims) => engine.access.tokenActor(claims),
      // Tokens are issued and expire by the workspace's test clock, as the service's are.
      ...(sandbox ? { workspaceNow: (workspaceId) => engine.testClocks.now({ workspaceId, scope: "read" }) } : {}),
    }),
    logger,
    // Where it is mounted below: put back in the URLs it answers with (paging links, say).
    mountPath: "/payments",
  })

  const app = express()
  // Koa reads the body itself: no body parser runs before the mount. Express strips `/payments`
  // from the URL, so the Koa app sees its own paths (`/api/v1/...`).
  app.use("/payments", payments.callback())
  app.get("/", (_request, response) => {
    response.json({ service: "acme host", payments_api: "/payments/api/v1" })
  })
  // The host's own route calls the engine directly: no HTTP hop, the same errors as the API.
  app.post("/my/companies/:companyId/recipients", express.json(), async (request, response) => {
    const actor: Actor = { workspaceId: workspace.id, scope: "write" }
    try {
      const recipient = await engine.recipients.create(actor, CompanyId.make(request.params.companyId), request.body)
      response.status(201).json({ data: recipient })
    } catch (error) {
      if (!isDomainError(error)) throw error
      response.status(httpStatusOf(error)).json({ errors: error.errors })
    }
  })

  const server = createServer(app)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 3000, () => resolve())
  }).catch(async (error: unknown) => {
    await engine.close()
    throw error
  })
  engine.jobs.start()
  const { port } = server.address() as AddressInfo
  logger.info({ port }, "listening")
  return {
    url: `http://localhost:${port}`,
    engine,
    apiKey,
    close: async () => {
      const served = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      // The runner stops taking jobs now, and the storage closes once the job in flight ends.
      await Promise.all([served, engine.jobs.stop()])
      await engine.close()
    },
  }
}
