/**
 * What the HTTP binding costs: the Koa app of `@payments-engine/http-koa` on a real socket on
 * 127.0.0.1, driven by a keep-alive client in the same process, one request at a time.
 */
import { randomBytes } from "node:crypto"
import { Agent, createServer, type RequestListener, request } from "node:http"
import type { AddressInfo } from "node:net"
import { performance } from "node:perf_hooks"
import { Router } from "@koa/router"
import { type Payer, payInProcess, paymentRequest, quoteRequest, setUpPayer } from "@payments-engine/adapters/testing"
import type { Engine, Storage } from "@payments-engine/core"
import {
  apiRoutes,
  bearerTokens,
  createApp,
  createLogger,
  createServiceEngine,
  maxRateLimit,
  rateLimitSettings,
} from "@payments-engine/http-koa"
import Koa from "koa"
import { pino } from "pino"

/** How many requests or pairs a run makes, how many runs, and the most time one run may take. */
export interface HttpBudget {
  /** Rounds per figure; each figure is the best of them. */
  readonly rounds: number
  /** GET requests per round, on each side. */
  readonly gets: number
  /** Quote + payment pairs per round, on each side. */
  readonly pairs: number
  /** A round stops here even if it has not made its count: the bench must end on a slow machine. */
  readonly roundLimitMs: number
}

/**
 * How fast one side went: operations per second of wall time (best run), and CPU time per
 * operation (best run), counted over all of this process's threads, so the client is in it and
 * a database server is not. On a busy machine the wall figure falls far more than the CPU one.
 */
export interface Speed {
  readonly perSecond: number
  readonly cpuMicros: number
}

/**
 * The app's GET of one company, a bare Koa route serving the same bytes, and the same read made
 * in-process through the engine.
 */
export interface GetMeasurement {
  readonly app: Speed
  readonly bare: Speed
  readonly inProcess: Speed
  /** Size of the answer both serve. */
  readonly bytes: number
}

/** The same quote + payment pairs in-process and over HTTP, on one engine and storage. */
export interface PairsMeasurement {
  readonly inProcess: Speed
  readonly http: Speed
}

/** The figures of {@link measureHttpPath}. */
export interface HttpMeasurement {
  readonly get: GetMeasurement | undefined
  readonly pairs: PairsMeasurement
}

/** GETs and pairs made before the clock starts on each side, so that the JIT has compiled both. */
export const httpWarmUp = { gets: 300, pairs: 150 } as const
/** A request that takes this long means the bench is broken, not slow. */
const requestTimeoutMs = 10_000

interface Answer {
  readonly status: number
  readonly contentType: string
  readonly body: Buffer
}

interface Listening {
  readonly port: number
  close(): Promise<void>
}

const listen = (handler: RequestListener) =>
  new Promise<Listening>((resolve, reject) => {
    const server = createServer(handler)
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()))
            server.closeAllConnections()
          }),
      }),
    )
  })

/**
 * One keep-alive connection to a port on 127.0.0.1; requests go one at a time, as a client that
 * waits for each answer sends them.
 */
class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 })

  constructor(
    private readonly port: number,
    private readonly token?: string,
  ) {}

  send(method: string, path: string, json?: string): Promise<Answer> {
    const headers: Record<string, string | number> = {}
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`
    if (json !== undefined) {
      headers["content-type"] = "application/json"
      headers["content-length"] = Buffer.byteLength(json)
    }
    return new Promise((resolve, reject) => {
      const sent = request(
        { host: "127.0.0.1", port: this.port, method, path, headers, agent: this.agent },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("error", reject)
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              contentType: response.headers["content-type"] ?? "",
              body: Buffer.concat(chunks),
            }),
          )
        },
      )
      sent.setTimeout(requestTimeoutMs, () => sent.destroy(new Error(`${method} ${path}: no answer in time`)))
      sent.on("error", reject)
      sent.end(json)
    })
  }

  /** Sends and fails loudly on any other status: a bench of error answers would measure nothing. */
  async expect(status: number, method: string, path: string, json?: string): Promise<Answer> {
    const answer = await this.send(method, path, json)
    if (answer.status !== status) {
      throw new Error(`${method} ${path}: expected ${status}, got ${answer.status} ${answer.body.toString()}`)
    }
    return answer
  }

  close() {
    this.agent.destroy()
  }
}

/** Runs `once(0)`, `once(1)`, … until `count` are done or `limitMs` has passed; how fast. */
const rate = async (count: number, limitMs: number, once: (i: number) => Promise<unknown>): Promise<Speed> => {
  const cpu = process.cpuUsage()
  const started = performance.now()
  let done = 0
  while (done < count && performance.now() - started < limitMs) await once(done++)
  const elapsed = performance.now() - started
  const used = process.cpuUsage(cpu)
  return { perSecond: done / (elapsed / 1000), cpuMicros: (used.user + used.system) / done }
}

/**
 * The best of `rounds` runs of each measure, the measures taking turns within a round, so that a
 * stretch of load from elsewhere on the machine slows both sides of a ratio rather than one.
 */
const bestInTurns = async <K extends string>(
  rounds: number,
  measures: Record<K, (round: number) => Promise<Speed>>,
): Promise<Record<K, Speed>> => {
  const names = Object.keys(measures) as Array<K>
  const best = Object.fromEntries(
    names.map((name) => [name, { perSecond: 0, cpuMicros: Number.POSITIVE_INFINITY }]),
  ) as Record<K, Speed>
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const speed = await measures[name](round)
      best[name] = {
        perSecond: Math.max(best[name].perSecond, speed.perSecond),
        cpuMicros: Math.min(best[name].cpuMicros, speed.cpuMicros),
      }
    }
  }
  return best
}

/** The app as `startService` builds it, without the job runner and the purge timer, which a request never waits for. */
const startApp = async (engine: Engine) => {
  const secret = randomBytes(32).toString("hex")
  // The service logs at `info` to standard output, a line a request; /dev/null keeps that cost without the noise.
  const logger = createLogger({ level: "info", destination: pino.destination({ dest: "/dev/null", sync: true }) })
  const app = createApp({
    engine,
    tokens: bearerTokens({ secret, confirm: (claims) => engine.access.tokenActor(claims) }),
    logger,
    routes: apiRoutes,
    isClosing: () => false,
    // Every limit at its maximum: the requests are still counted, which is the cost to measure.
    rateLimits: {
      limits: rateLimitSettings({
        general: maxRateLimit,
        quotes: maxRateLimit,
        payments: maxRateLimit,
        failedSessions: maxRateLimit,
        sessionsPerAddress: maxRateLimit,
      }),
    },
  })
  return listen(app.callback())
}

/** A bearer token for `workspace`, as a client gets one: a new API key exchanged over HTTP. */
const signIn = async (engine: Engine, port: number, workspace: string): Promise<string> => {
  const key = await engine.access.createApiKey({ workspace, scope: "write" })
  const client = new Client(port)
  try {
    const answer = await client.expect(
      201,
      "POST",
      "/api/v1/sessions",
      JSON.stringify({ api_key: key.api_key, api_secret: key.api_secret }),
    )
    return JSON.parse(answer.body.toString()).data.access_token as string
  } finally {
    client.close()
  }
}

/** The app's GET of one company against a bare Koa route (Koa and its router, nothing else) serving the same bytes. */
const measureGet = async (
  engine: Engine,
  client: Client,
  payer: Payer,
  budget: HttpBudget,
): Promise<GetMeasurement> => {
  const path = `/api/v1/companies/${payer.companyId}`
  const answer = await client.expect(200, "GET", path)
  const bare = new Koa()
  const router = new Router()
  router.get("/api/v1/companies/:id", (ctx) => {
    ctx.type = answer.contentType
    ctx.body = answer.body
  })
  bare.use(router.routes())
  const bareServer = await listen(bare.callback())
  const bareClient = new Client(bareServer.port)
  try {
    const copy = await bareClient.expect(200, "GET", path)
    if (!copy.body.equals(answer.body)) throw new Error("the bare route does not serve the app's bytes")
    const get = (from: Client) => () => from.expect(200, "GET", path)
    const read = () => engine.companies.get(payer.actor, payer.companyId)
    await rate(httpWarmUp.gets, budget.roundLimitMs, get(client))
    await rate(httpWarmUp.gets, budget.roundLimitMs, get(bareClient))
    await rate(httpWarmUp.gets, budget.roundLimitMs, read)
    const best = await bestInTurns(budget.rounds, {
      app: () => rate(budget.gets, budget.roundLimitMs, get(client)),
      bare: () => rate(budget.gets, budget.roundLimitMs, get(bareClient)),
      inProcess: () => rate(budget.gets, budget.roundLimitMs, read),
    })
    return { ...best, bytes: answer.body.length }
  } finally {
    bareClient.close()
    await bareServer.close()
  }
}

/** Quote + payment over HTTP, the two calls a client makes; the payment waits for the quote's id. */
const payOverHttp = async (client: Client, payer: Payer, i: number) => {
  const base = `/api/v1/companies/${payer.companyId}`
  const quote = await client.expect(201, "POST", `${base}/quotes`, JSON.stringify(quoteRequest(payer, i)))
  const quoteId = JSON.parse(quote.body.toString()).data.id as string
  await client.expect(201, "POST", `${base}/payments`, JSON.stringify(paymentRequest(quoteId, i, "http")))
}

/**
 * Measures the HTTP path on a fresh, empty storage: the GET of one company against a bare Koa
 * route (when `withGet`), and quote + payment pairs over HTTP against the same pairs made
 * in-process on the same engine. The caller closes the storage.
 *
 * @example
 * const figures = await measureHttpPath(await openSqliteStorage({ filename }), budget, { withGet: true })
 */
export const measureHttpPath = async (
  storage: Storage,
  budget: HttpBudget,
  options: { readonly withGet: boolean },
): Promise<HttpMeasurement> => {
  const serverSecret = randomBytes(32).toString("hex")
  const engine = createServiceEngine({ storage, serverSecret: { read: async () => serverSecret } })
  const server = await startApp(engine)
  const workspace = "bench-http"
  const payer = await setUpPayer(engine, workspace)
  const client = new Client(server.port, await signIn(engine, server.port, workspace))
  try {
    const get = options.withGet ? await measureGet(engine, client, payer, budget) : undefined
    await rate(httpWarmUp.pairs, budget.roundLimitMs, (i) => payInProcess(engine, payer, -1 - i, "local"))
    await rate(httpWarmUp.pairs, budget.roundLimitMs, (i) => payOverHttp(client, payer, -1 - i))
    const offset = (round: number) => round * budget.pairs
    const pairs = await bestInTurns(budget.rounds, {
      inProcess: (round) =>
        rate(budget.pairs, budget.roundLimitMs, (i) => payInProcess(engine, payer, offset(round) + i, "local")),
      http: (round) => rate(budget.pairs, budget.roundLimitMs, (i) => payOverHttp(client, payer, offset(round) + i)),
    })
    return { get, pairs }
  } finally {
    client.close()
    await server.close()
  }
}
