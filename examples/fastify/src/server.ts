import { randomBytes } from "node:crypto"
import type { AddressInfo } from "node:net"
import { openSqliteStorage } from "@payments-engine/adapters"
import { type Actor, CompanyId, type Engine, isDomainError, type RecipientCreateBody } from "@payments-engine/core"
import {
  apiRoutes,
  bearerTokens,
  createApp,
  createServiceEngine,
  httpStatusOf,
  jobLogTo,
  sandboxRoutes,
} from "@payments-engine/http-koa"
import Fastify from "fastify"
import { type Logger, pino } from "pino"

/** The workspace the host's own routes act in, and the one its API key opens sessions on. */
export const hostWorkspace = "acme"

/** Where the payments API is mounted. */
export const paymentsPrefix = "/payments"

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** 3000 by default; 0 picks a free port. */
  readonly port?: number
  /** Fastify's logger, shared with the payments API and the job runner; pino on standard output by default. */
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
  /** Closes Fastify: its `onClose` hook stops the job runner and closes the storage. */
  close(): Promise<void>
}

/**
 * A Fastify 5 server that serves the payments API under {@link paymentsPrefix} (the Koa app of
 * `@payments-engine/http-koa`, given the raw Node request) beside its own routes, one of which
 * calls the engine directly; the job runner starts on `onReady` and stops on `onClose`, and the
 * payments API logs to `fastify.log`.
 *
 * @example
 * const server = await startServer({ port: 3000 })
 * process.once("SIGTERM", () => server.close())
 */
export const startServer = async (options: ServerOptions = {}): Promise<RunningServer> => {
  const fastify = Fastify({ loggerInstance: options.logger ?? pino() })
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
    jobLog: jobLogTo(fastify.log),
  })
  fastify.addHook("onReady", async () => engine.jobs.start())
  // Runs once Fastify has stopped listening and its requests are answered.
  fastify.addHook("onClose", () => engine.close())
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
    logger: fastify.log,
    // Where it is mounted below: put back in the URLs it answers with (paging links, say).
    mountPath: paymentsPrefix,
  }).callback()

  await fastify.register(
    async (mounted) => {
      // Koa reads the body itself: in this plugin only, the body is left unread for it.
      mounted.removeAllContentTypeParsers()
      mounted.addContentTypeParser("*", (_request, _payload, done) => done(null))
      // The Koa app logs each request it answers, with its own id: Fastify's two lines for the
      // same request (incoming, completed), under another id, would count it twice.
      mounted.all("/*", { logLevel: "silent" }, (request, reply) => {
        // Fastify sends nothing for this request: Koa answers on the raw response.
        reply.hijack()
        request.raw.url = request.raw.url?.slice(paymentsPrefix.length) ?? "/"
        void payments(request.raw, reply.raw)
      })
    },
    { prefix: paymentsPrefix },
  )
  fastify.get("/", async () => ({ service: "acme host", payments_api: `${paymentsPrefix}/api/v1` }))
  // The host's own route calls the engine directly: no HTTP hop, the same errors as the API.
  fastify.post<{ Params: { companyId: string }; Body: RecipientCreateBody }>(
    "/my/companies/:companyId/recipients",
    async (request, reply) => {
      const actor: Actor = { workspaceId: workspace.id, scope: "write" }
      try {
        const recipient = await engine.recipients.create(actor, CompanyId.make(request.params.companyId), request.body)
        return reply.code(201).send({ data: recipient })
      } catch (error) {
        if (!isDomainError(error)) throw error
        return reply.code(httpStatusOf(error)).send({ errors: error.errors })
      }
    },
  )

  try {
    await fastify.listen({ port: options.port ?? 3000 })
  } catch (error) {
    await fastify.close()
    throw error
  }
  const { port } = fastify.server.address() as AddressInfo
  return { url: `http://localhost:${port}`, engine, apiKey, close: () => fastify.close() }
}
