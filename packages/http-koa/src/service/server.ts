import { createServer, type RequestListener, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { TracerProvider } from "@opentelemetry/api"
import {
  memoryRateLimitStore,
  openStorageFromUrl,
  openTelemetryTracing,
  rateLimitSchema,
  systemClock,
} from "@payments-engine/adapters"
import { type KyselyStorage, kyselyStorageOf, pendingStorageMigrations } from "@payments-engine/adapters/kysely"
import type {
  Clock,
  Engine,
  PaymentProvider,
  RateLimitStore,
  SecretHasher,
  Storage,
  WorkspaceId,
} from "@payments-engine/core"
import type { Logger } from "pino"
import { createApp } from "../binding/app.ts"
import { bearerTokens } from "../binding/bearer-tokens.ts"
import { answerClientErrors } from "../binding/client-errors.ts"
import { errorLogFields } from "../binding/error-log-fields.ts"
import { createLogger } from "../binding/logger.ts"
import { type ReadinessReport, readinessReport } from "../binding/readiness.ts"
import { apiRoutes } from "../binding/routes/api-routes.ts"
import { sandboxRoutes } from "../binding/routes/sandbox-routes.ts"
import { bootstrapApiKey } from "./bootstrap.ts"
import type { HttpServerLimits, ServiceConfig } from "./config.ts"
import { databaseLabel } from "./database-label.ts"
import { jobLogTo } from "./job-log.ts"
import { metricsServer, type ServiceMetrics, serviceMetrics } from "./metrics.ts"
import { serverSecretFor } from "./server-secret.ts"
import { createServiceEngine } from "./service-engine.ts"
import { StartupError } from "./startup-error.ts"
import type { ServiceTracing } from "./tracing-sdk.ts"

export { StartupError }

/** How long a shutdown waits in all for the requests and the job in flight. */
export const shutdownGraceMs = 10_000

/** Logged when a shutdown reaches its grace with work still in flight. */
export const shutdownCutShortWarning =
  "shutdown grace over: open connections are closed, and the job in flight, if any, runs again at the next start"

/**
 * Logged at start outside sandbox mode: payments still go to the sandbox provider, because no
 * real payment provider or bank linker is wired yet.
 */
export const sandboxProvidersWarning =
  "sandbox mode is off, but no real payment provider or bank linker exists yet: the sandbox ones are used, so no money moves"

/** Options of {@link startService}, mostly for tests. */
export interface StartServiceOptions {
  readonly logger?: Logger
  /** Where the bootstrap key lines go; standard output by default. */
  readonly print?: (line: string) => void
  readonly clock?: Clock
  readonly hasher?: SecretHasher
  /** The sandbox payment provider by default. */
  readonly paymentProvider?: PaymentProvider
  /** The interface to listen on; every interface by default. */
  readonly host?: string
  /**
   * Where the spans go, whatever the `OTEL_*` variables say: a host's or a test's provider, and
   * no SDK loaded by the service. Its context manager and propagator are the host's to register
   * (the SDK's `NodeTracerProvider.register()` does both).
   */
  readonly tracerProvider?: TracerProvider
}

/** A service that listens. */
export interface RunningService {
  /** `http://localhost:<port>`. */
  readonly url: string
  readonly port: number
  readonly engine: Engine
  readonly server: Server
  /** `http://localhost:<port>/metrics` when `PAYMENTS_METRICS_PORT` is set. */
  readonly metricsUrl?: string
  /**
   * Stops taking connections and jobs at once, lets the requests and the job in flight finish,
   * and closes the storage: all within `graceMs` (10 s by default). Past it, the connections still
   * open are closed and the promise resolves, logging {@link shutdownCutShortWarning}; the storage
   * closes once the job in flight ends, or with the process. That job stays queued until it has
   * run to its end, so the next start runs it again, and running it again is safe: the provider
   * answers a payment id it has seen with its first outcome, never executing it twice.
   */
  close(graceMs?: number): Promise<void>
}

/**
 * A Node HTTP server with the configuration's timeouts and connection cap. Node looks for
 * requests past their headers or request timeout only every `connectionsCheckingInterval` (30 s
 * by default), so it looks as often as a fifth of the shorter timeout, at most every second.
 */
const limitedServer = (handler: RequestListener, limits: HttpServerLimits): Server => {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(limits.headersTimeoutMs / 5)),
    },
    handler,
  )
  server.timeout = limits.idleTimeoutMs
  server.maxConnections = limits.maxConnections
  return server
}

const listen = (server: Server, port: number, host: string | undefined) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    const onListening = () => {
      server.off("error", reject)
      resolve()
    }
    if (host === undefined) server.listen(port, onListening)
    else server.listen(port, host, onListening)
  })

/** Wraps a failure of the one-time set-up, to tell it from a failure to open the database. */
class SetUpFailure {
  constructor(readonly cause: unknown) {}
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The service's readiness (`GET /ready`): the database answers a read of Kysely's migrations table
 * and has every migration this version needs (one read does both), the job runner runs, and the
 * process is not shutting down. A database that fails the read fails `database` and, unknown,
 * `migrations`; its error is not shown to the unauthenticated caller.
 */
const serviceReadiness = async (
  storage: KyselyStorage,
  engine: Engine,
  isClosing: () => boolean,
): Promise<ReadinessReport> => {
  const pending = await pendingStorageMigrations(storage.db, { dialect: storage.dialect }).then(
    (names) => names.length,
    () => undefined,
  )
  return readinessReport({
    database: pending !== undefined,
    migrations: pending === 0,
    job_runner: engine.jobs.running(),
    shutdown: !isClosing(),
  })
}

/**
 * The rate limits' counters: in memory with SQLite (one process owns the file), in a table of the
 * Postgres database otherwise, so that every process on it counts against the same limits. The
 * Postgres store (the adapters' `/postgres` subpath) is loaded only then: it imports pg, which a
 * service on SQLite need not install.
 */
const openRateLimitStore = async (config: ServiceConfig): Promise<RateLimitStore> => {
  const database = config.database
  if (database.dialect === "sqlite") return memoryRateLimitStore()
  try {
    const { openPostgresRateLimitStore } = await import("@payments-engine/adapters/postgres")
    return await openPostgresRateLimitStore({
      connectionString: database.connectionString,
      schema: rateLimitSchema(database.schema),
    })
  } catch (error) {
    throw new StartupError(`Cannot create the rate limit table in Postgres: ${describe(error)}`, { cause: error })
  }
}

/**
 * Starts the service of a configuration: loads the OpenTelemetry SDK when traces are configured
 * (`ServiceConfig.traces`, logging `traces exported`; `options.tracerProvider` instead), logs `opening database` and opens (and migrates, logging each step) the storage, builds the engine
 * (in sandbox mode with a test clock per workspace and the sandbox helper routes), resolves the
 * server secret (see `serverSecretFor`), bootstraps an API key, opens the rate limits' store (see `openRateLimitStore`),
 * starts the storage's background job runner (which also purges expired idempotency records
 * hourly), and listens. Outside sandbox
 * mode it logs {@link sandboxProvidersWarning}. Fails with a {@link StartupError} whose message
 * is for the operator.
 *
 * @example
 * const service = await startService(loadConfig(process.env))
 * process.once("SIGTERM", () => service.close().then(() => process.exit(0)))
 */
export const startService = async (
  config: ServiceConfig,
  options: StartServiceOptions = {},
): Promise<RunningService> => {
  const logger = options.logger ?? createLogger({ level: config.logLevel })
  const clock = options.clock ?? systemClock
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`))
  const metrics: ServiceMetrics | undefined = config.metricsPort === undefined ? undefined : serviceMetrics()
  const tracing = await tracingOf(config, options, logger)
  const tracerProvider = tracing?.tracerProvider
  const engineOn = (storage: Storage, secret: string): Engine =>
    createServiceEngine({
      storage,
      clock,
      serverSecret: { read: async () => secret },
      // In the sandbox each workspace's clock can be moved forward by its helper; elsewhere time is real.
      testClocks: config.sandbox,
      // DECISIONS "URL safety": sandbox mode may send webhooks to a receiver on this machine.
      allowLocalWebhookUrls: config.sandbox,
      batchExecution: config.batchExecution,
      jobConcurrency: config.jobConcurrency,
      webhookWorkspaceLanes: config.webhookWorkspaceLanes,
      jobLog: jobLogTo(logger),
      attachmentsDirectory: config.attachmentsDirectory,
      ...(metrics === undefined ? {} : { metrics }),
      ...(tracerProvider === undefined ? {} : { tracing: openTelemetryTracing({ tracerProvider }) }),
      ...(options.hasher === undefined ? {} : { hasher: options.hasher }),
      ...(options.paymentProvider === undefined ? {} : { paymentProvider: options.paymentProvider }),
    })
  // The secret and the bootstrap key are settled before serving: processes starting together share
  // one secret (its file is created atomically) and, as the set-up runs under Postgres's start-up
  // lock, print one key.
  let prepared: { readonly engine: Engine; readonly secret: string; readonly storage: KyselyStorage } | undefined
  // A first start migrates every step, which may take a while: each says so as it ends.
  logger.info(
    { database: config.database.dialect, database_location: databaseLabel(config.database) },
    "opening database",
  )
  await openStorageFromUrl(config.databaseUrl, {
    onMigration: (step) => logger.info({ migration: step.name, duration_ms: step.durationMs }, "migration step ran"),
    setUp: async (opened) => {
      try {
        const secret = await serverSecretFor(config, opened)
        const engine = engineOn(opened, secret)
        await bootstrapApiKey(engine, config.bootstrapKey, print)
        prepared = { engine, secret, storage: kyselyStorageOf(opened) }
      } catch (error) {
        throw new SetUpFailure(error)
      }
    },
  }).catch(async (error: unknown) => {
    await tracing?.shutdown().catch(() => undefined)
    // A failed set-up is the service's own failure, not the database's: it keeps its message.
    if (error instanceof SetUpFailure) throw error.cause
    const reason = `Cannot open the database of DATABASE_URL (${config.database.dialect}): ${describe(error)}`
    throw new StartupError(reason, { cause: error })
  })
  if (prepared === undefined) {
    await tracing?.shutdown().catch(() => undefined)
    throw new Error("the storage opened without running its set-up")
  }
  const { engine, secret, storage } = prepared
  if (!config.sandbox) logger.warn(sandboxProvidersWarning)
  let rateLimitStore: RateLimitStore | undefined
  let listening: Server | undefined
  let metricsListening: Server | undefined
  try {
    rateLimitStore = await openRateLimitStore(config)
    let closing = false
    engine.jobs.start()
    const workspaceNow = (workspaceId: WorkspaceId) => engine.testClocks.now({ workspaceId, scope: "read" })
    const app = createApp({
      engine,
      routes: config.sandbox ? [...apiRoutes, ...sandboxRoutes] : apiRoutes,
      tokens: bearerTokens({
        secret,
        lifetimeSeconds: config.tokenLifetimeSeconds,
        clock,
        confirm: (claims) => engine.access.tokenActor(claims),
        keyCacheSeconds: config.keyCacheSeconds,
        ...(config.sandbox ? { workspaceNow } : {}),
      }),
      logger,
      isClosing: () => closing,
      readiness: () => serviceReadiness(storage, engine, () => closing),
      rateLimits: { limits: config.rateLimits, store: rateLimitStore },
      trustedProxyHops: config.trustedProxyHops,
      hostedUrl: config.hostedUrl,
      uploads: config.uploads,
      ...(metrics === undefined ? {} : { metrics: metrics.app }),
      ...(tracerProvider === undefined ? {} : { tracerProvider }),
    })
    listening = limitedServer(app.callback(), config.httpServer)
    answerClientErrors(listening, logger)
    await listen(listening, config.port, options.host).catch((error: unknown) => {
      throw new StartupError(`Cannot listen on port ${config.port}: ${describe(error)}`, { cause: error })
    })
    const api = listening
    const port = (api.address() as AddressInfo).port
    let metricsPort: number | undefined
    if (metrics !== undefined && config.metricsPort !== undefined) {
      const asked = config.metricsPort
      metricsListening = metricsServer(metrics.registry)
      await listen(metricsListening, asked, options.host).catch((error: unknown) => {
        throw new StartupError(`Cannot listen on PAYMENTS_METRICS_PORT ${asked}: ${describe(error)}`, { cause: error })
      })
      metricsPort = (metricsListening.address() as AddressInfo).port
      logger.info({ metrics_port: metricsPort }, "metrics served")
    }

    /** Everything a shutdown waits for, in order; see {@link RunningService.close}. */
    const settle = async () => {
      const served = new Promise<void>((resolve) => api.close(() => resolve()))
      api.closeIdleConnections()
      metricsListening?.close()
      metricsListening?.closeAllConnections()
      // The runner stops taking jobs now, not once the requests in flight are answered.
      await Promise.all([served, engine.jobs.stop()])
      await rateLimitStore?.close()
      await engine.close()
      await tracing?.shutdown()
    }
    let closed: Promise<void> | undefined
    return {
      url: `http://localhost:${port}`,
      port,
      engine,
      server: api,
      ...(metricsPort === undefined ? {} : { metricsUrl: `http://localhost:${metricsPort}/metrics` }),
      close: (graceMs = shutdownGraceMs) => {
        closed ??= (async () => {
          closing = true
          const settled = settle()
          let deadline: ReturnType<typeof setTimeout> | undefined
          const late = new Promise<"late">((resolve) => {
            deadline = setTimeout(() => resolve("late"), graceMs)
          })
          const outcome = await Promise.race([settled, late]).finally(() => clearTimeout(deadline))
          if (outcome !== "late") return
          // Past the grace: connections close now, and the storage once the job in flight ends.
          // That job is crash recovery's: it runs again at the next start.
          settled.catch((error: unknown) => logger.error({ err: errorLogFields(error) }, "shutdown failed"))
          api.closeAllConnections()
          logger.warn({ grace_ms: graceMs }, shutdownCutShortWarning)
        })()
        return closed
      },
    }
  } catch (error) {
    listening?.close()
    metricsListening?.close()
    await rateLimitStore?.close().catch(() => undefined)
    await engine.close().catch(() => undefined)
    await tracing?.shutdown().catch(() => undefined)
    throw error
  }
}

/**
 * Where the service's spans go: the provider of `options`, else the SDK the configuration asks
 * for (`ServiceConfig.traces`), loaded only then, else nowhere (no span is made).
 */
const tracingOf = async (
  config: ServiceConfig,
  options: StartServiceOptions,
  logger: Logger,
): Promise<ServiceTracing | undefined> => {
  if (options.tracerProvider !== undefined) {
    return { tracerProvider: options.tracerProvider, shutdown: async () => {} }
  }
  if (config.traces === undefined) return undefined
  const { startServiceTracing } = await import("./tracing-sdk.ts")
  const tracing = startServiceTracing(config.traces)
  logger.info({ traces_exporter: config.traces.exporter, service_name: config.traces.serviceName }, "traces exported")
  return tracing
}
