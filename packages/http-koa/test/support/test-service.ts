import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type RequestListener, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  type SandboxBankLinker,
  type SandboxPaymentProvider,
  scryptHasher,
  TestClock,
} from "@payments-engine/adapters"
import type { BatchExecution, Engine, FeeSchedule, JobRunnerLog, Storage, WorkspaceId } from "@payments-engine/core"
import { CompanyId, EntityId } from "@payments-engine/core"
import { createApp, type RateLimitOptions } from "../../src/binding/app.ts"
import { bearerTokens } from "../../src/binding/bearer-tokens.ts"
import { createLogger } from "../../src/binding/logger.ts"
import type { UploadLimits } from "../../src/binding/middleware/upload-slots.ts"
import { maxRateLimit, type RateLimitSettings } from "../../src/binding/rate-limits/rate-limit-settings.ts"
import { apiRoutes } from "../../src/binding/routes/api-routes.ts"
import type { RouteSpec } from "../../src/binding/routes/route-table.ts"
import { sandboxRoutes } from "../../src/binding/routes/sandbox-routes.ts"
import { createServiceEngine } from "../../src/service/service-engine.ts"

/** The secret the test services sign tokens with. */
export const testJwtSecret = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz"

/** An answer, with its body parsed when it is JSON. */
export interface TestResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely
  readonly body: any
}

/** How to send one request. */
export interface RequestOptions {
  /** Sent as JSON with `Content-Type: application/json`. */
  readonly body?: unknown
  /** Sent as is; set the Content-Type yourself in `headers`. */
  readonly raw?: string | Uint8Array
  readonly token?: string
  readonly headers?: Record<string, string>
}

/** A running app on a real socket, with the pieces a test needs. */
export interface TestService {
  readonly url: string
  readonly engine: Engine
  readonly clock: TestClock
  readonly storage: Storage
  /** Every log line written so far. */
  readonly logs: Array<string>
  /** Where the engine keeps attachments' bytes: a fresh temporary directory, removed by `close`. */
  readonly attachmentsDirectory: string
  /** The routes the app serves: the API's, plus the sandbox helpers when `sandbox` is set. */
  readonly routes: ReadonlyArray<RouteSpec>
  /** The engine's payment provider (the sandbox one unless the test gave another). */
  readonly paymentProvider: SandboxPaymentProvider
  /** The engine's bank linker. */
  readonly bankLinker: SandboxBankLinker
  /**
   * Runs the jobs that are due by the test clock, until none is; how many ran. No job runs
   * otherwise: the test service has no background runner, so a test decides when work happens.
   */
  runJobs(): Promise<number>
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>
  /** A new API key in `workspace` (created when missing), exchanged for a bearer token over HTTP. */
  signIn(workspace: string, scope?: "read" | "write"): Promise<string>
  close(): Promise<void>
}

/** Options of {@link startTestService}. */
export interface TestServiceOptions {
  readonly storage: Storage
  readonly clock?: TestClock
  readonly tokenLifetimeSeconds?: number
  /** How long the app trusts a key's state; the service's default (30 s) unless given. */
  readonly keyCacheSeconds?: number
  /** Wraps the engine, e.g. to plant a fault. */
  readonly wrapEngine?: (engine: Engine) => Engine
  /**
   * Sandbox mode: serves the sandbox helper routes too (funding accounts, clock advance), and each
   * workspace has its test clock, kept in storage, on top of the test clock. As in the service,
   * the clock helper then runs the jobs that became due; nothing else does.
   */
  readonly sandbox?: boolean
  /** A sandbox payment provider set up by the test (latency, failures); a fresh one by default. */
  readonly paymentProvider?: SandboxPaymentProvider
  readonly bankLinker?: SandboxBankLinker
  readonly feeSchedule?: FeeSchedule
  /** The app's rate limits: {@link generousRateLimits} in memory by default. */
  readonly rateLimits?: RateLimitOptions
  /** Reverse proxies the app trusts in `X-Forwarded-For`; none by default. */
  readonly trustedProxyHops?: number
  /** How batches run their payments; the engine's defaults unless given. */
  readonly batchExecution?: Partial<BatchExecution>
  /** How long one webhook delivery attempt may take; the engine's 30 s unless given. */
  readonly webhookTimeoutMs?: number
  /** Told about background work (the engine's `jobLog`); nothing by default. */
  readonly jobLog?: JobRunnerLog
  /** Rows served besides the API's (a test's own probe of an engine use case no route calls yet). */
  readonly extraRoutes?: ReadonlyArray<RouteSpec>
  /** `PAYMENTS_HOSTED_URL`: the hosted pages are served under its path (the root by default). */
  readonly hostedUrl?: string
  /**
   * Serve the app mounted at this path, as a host server would: the server takes it off the URL
   * before the app sees the request, and answers 404 itself outside it. Requests then name it.
   */
  readonly mountPath?: string
  /** Uploads in progress at once, per key and in all; the app's defaults unless given. */
  readonly uploads?: UploadLimits
  /** Where uploads are spooled while their request runs; the system's temporary directory unless given. */
  readonly uploadSpoolDirectory?: string
}

/** A host's handler that serves `handler` at `mountPath`, taking the path off the URL as Express's `app.use(path, ...)` does. */
const mounted =
  (mountPath: string, handler: RequestListener): RequestListener =>
  (request, response) => {
    const url = request.url ?? "/"
    const rest = url.slice(mountPath.length)
    if (!url.startsWith(mountPath) || !(rest === "" || rest.startsWith("/") || rest.startsWith("?"))) {
      response.writeHead(404).end("not the app's")
      return
    }
    request.url = rest.startsWith("/") ? rest : `/${rest}`
    handler(request, response)
  }

/**
 * Every rate limit at its maximum: tests about something else send thousands of requests with
 * one key (and sign in from one address), so their apps set these; `rate-limits.test.ts` sets
 * small limits to test the limits themselves.
 */
export const generousRateLimits: RateLimitSettings = {
  general: maxRateLimit,
  quotes: maxRateLimit,
  payments: maxRateLimit,
  multiCurrency: maxRateLimit,
  failedSessions: maxRateLimit,
  sessionsPerAddress: maxRateLimit,
}

/** A cheap scrypt, so sign-ins stay fast in tests. */
export const fastHasher = () => scryptHasher({ cost: 2 ** 10 })

const listen = (server: Server) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
  })

/** Parses a fetch response into a {@link TestResponse}. */
export const readResponse = async (response: Response): Promise<TestResponse> => {
  const text = await response.text()
  const isJson = (response.headers.get("content-type") ?? "").includes("json")
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: isJson && text !== "" ? JSON.parse(text) : undefined,
  }
}

/**
 * Starts the app of `createApp` on 127.0.0.1 and a free port, over the given storage, with a
 * {@link TestClock} shared by the engine and the bearer tokens.
 *
 * @example
 * const service = await startTestService({ storage: await sqlite.factory() })
 * const token = await service.signIn("acme")
 */
export const startTestService = async (options: TestServiceOptions): Promise<TestService> => {
  const clock = options.clock ?? new TestClock(new Date("2026-01-01T00:00:00.000Z"))
  const paymentProvider = options.paymentProvider ?? createSandboxPaymentProvider()
  const bankLinker = options.bankLinker ?? createSandboxBankLinker()
  const attachmentsDirectory = await mkdtemp(join(tmpdir(), "attachments-"))
  const real = createServiceEngine({
    storage: options.storage,
    attachmentsDirectory,
    clock,
    hasher: fastHasher(),
    serverSecret: { read: async () => testJwtSecret },
    paymentProvider,
    bankLinker,
    ...(options.feeSchedule === undefined ? {} : { feeSchedule: options.feeSchedule }),
    testClocks: options.sandbox === true,
    allowLocalWebhookUrls: options.sandbox === true,
    ...(options.batchExecution === undefined ? {} : { batchExecution: options.batchExecution }),
    ...(options.webhookTimeoutMs === undefined ? {} : { webhookTimeoutMs: options.webhookTimeoutMs }),
    ...(options.jobLog === undefined ? {} : { jobLog: options.jobLog }),
  })
  const engine = options.wrapEngine === undefined ? real : options.wrapEngine(real)
  const runJobs = async () => (await engine.jobs.runDue()).ran
  const routes = [...(options.sandbox ? [...apiRoutes, ...sandboxRoutes] : apiRoutes), ...(options.extraRoutes ?? [])]
  const logs: Array<string> = []
  const logger = createLogger({ level: "debug", destination: { write: (line: string) => void logs.push(line) } })
  const tokens = bearerTokens({
    secret: testJwtSecret,
    clock,
    confirm: (claims) => engine.access.tokenActor(claims),
    ...(options.tokenLifetimeSeconds === undefined ? {} : { lifetimeSeconds: options.tokenLifetimeSeconds }),
    ...(options.keyCacheSeconds === undefined ? {} : { keyCacheSeconds: options.keyCacheSeconds }),
    ...(options.sandbox
      ? { workspaceNow: (workspaceId: WorkspaceId) => real.testClocks.now({ workspaceId, scope: "read" }) }
      : {}),
  })
  const rateLimits = options.rateLimits ?? { limits: generousRateLimits }
  const hops = options.trustedProxyHops === undefined ? {} : { trustedProxyHops: options.trustedProxyHops }
  const hosted = options.hostedUrl === undefined ? {} : { hostedUrl: options.hostedUrl }
  const mountPath = options.mountPath ?? ""
  const uploads = {
    ...(options.uploads === undefined ? {} : { uploads: options.uploads }),
    ...(options.uploadSpoolDirectory === undefined ? {} : { uploadSpoolDirectory: options.uploadSpoolDirectory }),
  }
  const app = createApp({ engine, tokens, logger, routes, rateLimits, ...hops, ...hosted, ...uploads, mountPath })
  const server = createServer(mountPath === "" ? app.callback() : mounted(mountPath, app.callback()))
  const port = await listen(server)
  const url = `http://127.0.0.1:${port}`

  const request = async (method: string, path: string, requestOptions: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers }
    if (requestOptions.token !== undefined) headers.Authorization = `Bearer ${requestOptions.token}`
    let body: string | Uint8Array | undefined = requestOptions.raw
    if (requestOptions.body !== undefined) {
      body = JSON.stringify(requestOptions.body)
      headers["Content-Type"] ??= "application/json"
    }
    const init: RequestInit = {
      method,
      headers,
      redirect: "manual",
      ...(body === undefined ? {} : { body: body as BodyInit }),
    }
    return readResponse(await fetch(`${url}${path}`, init))
  }

  return {
    url,
    engine,
    clock,
    storage: options.storage,
    logs,
    attachmentsDirectory,
    routes,
    paymentProvider,
    bankLinker,
    runJobs,
    request,
    signIn: async (workspace, scope = "write") => {
      const key = await real.access.createApiKey({ workspace, scope })
      const response = await request("POST", `${mountPath}/api/v1/sessions`, {
        body: { api_key: key.api_key, api_secret: key.api_secret },
      })
      if (response.status !== 201) throw new Error(`sign-in failed: ${response.status} ${response.text}`)
      return response.body.data.access_token as string
    },
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
      await rm(attachmentsDirectory, { recursive: true, force: true })
    },
  }
}

/**
 * Marks an entity as having an active payment integration, straight in storage: a shortcut for
 * tests about something else. A client gets it by enabling the multi-currency feature and moving
 * it to ACTIVE (`features.test.ts` does that over HTTP).
 */
export const activateIntegration = async (storage: Storage, companyId: string, entityId: string): Promise<void> => {
  const marked = await storage.transaction((tx) =>
    tx.entities.markIntegrationActive(CompanyId.make(companyId), EntityId.make(entityId)),
  )
  if (!marked) throw new Error(`no entity ${entityId}`)
}

/** A valid company body. */
export const acme = { name: "Acme Inc", country: "US", default_currency: "USD" } as const
