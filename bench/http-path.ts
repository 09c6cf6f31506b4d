/**
 * What the HTTP binding costs: the Koa app of `@payments-engine/http-koa` on a real socket on
 * 127.0.0.1, driven by a keep-alive client in the same process, one request at a time, each
 * comparison's sides in turns (`in-turns.ts`). `profile-layers.ts` serves the same app.
 */
import { randomBytes } from "node:crypto"
import { Agent, createServer, type RequestListener, request } from "node:http"
import type { AddressInfo } from "node:net"
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
import { inTurns, repeat, type Turns } from "./in-turns.ts"
import { statementsEach } from "./round-trips.ts"

/** How long a run is: rounds, each a slice of every side in turn. */
export interface HttpBudget {
  readonly rounds: number
  /** GET requests a slice. */
  readonly getsPerSlice: number
  /** Quote + payment pairs a slice. */
  readonly pairsPerSlice: number
}

/** The app's GET of one company, a bare Koa route serving the same bytes, and the same read made in-process. */
export interface GetMeasurement {
  readonly turns: Turns<"app" | "bare" | "inProcess">
  /** Size of the answer both serve. */
  readonly bytes: number
}

/** Statements (SQLite) or round trips (Postgres) the engine sends, each counted over a few in a row. */
export interface HttpTrips {
  /** A GET of one company through the app, its bearer token's check included. */
  readonly get: number
  readonly pairInProcess: number
  readonly pairOverHttp: number
}

/** The figures of {@link measureHttpPath}. */
export interface HttpMeasurement {
  readonly get: GetMeasurement | undefined
  /**
   * The same quote + payment pairs in-process and over HTTP, on one engine and storage, and the
   * same two requests to a bare Koa app answering the app's bytes (`bare`): what HTTP costs a pair
   * with nothing of the app in it.
   */
  readonly pairs: Turns<"inProcess" | "http" | "bare">
  readonly trips: HttpTrips
}

/** GETs and pairs made before the clock starts on each side, so that the JIT has compiled both. */
export const httpWarmUp = { gets: 300, pairs: 150 } as const
/** A request that takes this long means the bench is broken, not slow. */
const requestTimeoutMs = 10_000
/**
 * How long a server keeps an idle keep-alive connection, and waits for a request's headers:
 * far longer than any side waits for the others' turns, even on a loaded machine. Node's 5 s
 * default closed the connection under a waiting client, which then failed with ECONNRESET.
 */
const idleConnectionMs = 2 * 60_000
/** Operations counted for the statements an operation (their mean). */
const countedOperations = 20

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
    const server = createServer(
      { keepAliveTimeout: idleConnectionMs, headersTimeout: idleConnectionMs + 1000 },
      handler,
    )
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
export class Client {
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

/** Runs `once(0)` … `once(count - 1)`, untimed: the warm-up of a side. */
const warmUp = async (count: number, once: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < count; i++) await once(i)
}

/** The app as `startService` builds it, without the job runner and the purge timer, which a request never waits for. */
export const startApp = async (engine: Engine) => {
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
export const signIn = async (engine: Engine, port: number, workspace: string): Promise<string> => {
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
    await warmUp(httpWarmUp.gets, get(client))
    await warmUp(httpWarmUp.gets, get(bareClient))
    await warmUp(httpWarmUp.gets, read)
    const turns = await inTurns(budget.rounds, {
      app: repeat(budget.getsPerSlice, get(client)),
      bare: repeat(budget.getsPerSlice, get(bareClient)),
      inProcess: repeat(budget.getsPerSlice, read),
    })
    return { turns, bytes: answer.body.length }
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
 * A bare Koa app (Koa and `@koa/router`, nothing else) with the two routes of a pair, each reading
 * the request's body to its end without keeping it and answering the bytes the app answered one
 * pair: the HTTP of a pair, client included, with nothing of the app or the engine in it.
 */
const startBarePair = async (client: Client, payer: Payer) => {
  const base = `/api/v1/companies/${payer.companyId}`
  const quote = await client.expect(201, "POST", `${base}/quotes`, JSON.stringify(quoteRequest(payer, -1e6)))
  const quoteId = JSON.parse(quote.body.toString()).data.id as string
  const payment = await client.expect(
    201,
    "POST",
    `${base}/payments`,
    JSON.stringify(paymentRequest(quoteId, -1e6, "bare")),
  )
  const bare = new Koa()
  const router = new Router()
  for (const [path, answer] of [
    ["/api/v1/companies/:id/quotes", quote],
    ["/api/v1/companies/:id/payments", payment],
  ] as const) {
    router.post(path, async (ctx) => {
      // Read to its end and dropped, the least a server can do with a body before it answers on a kept connection.
      await new Promise((resolve, reject) => ctx.req.on("end", resolve).on("error", reject).resume())
      ctx.status = 201
      ctx.type = answer.contentType
      ctx.body = answer.body
    })
  }
  bare.use(router.routes())
  return listen(bare.callback())
}

/**
 * Measures the HTTP path on a fresh, empty storage: the GET of one company against a bare Koa
 * route (when `withGet`), and quote + payment pairs over HTTP against the same pairs made
 * in-process on the same engine and the same requests to a bare Koa app (`startBarePair`), each
 * comparison's sides in turns; and the statements each sends.
 * The caller closes the storage.
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
  const bareServer = await startBarePair(client, payer)
  const bareClient = new Client(bareServer.port)
  try {
    const get = options.withGet ? await measureGet(engine, client, payer, budget) : undefined
    const inProcess = (i: number) => payInProcess(engine, payer, i, "local")
    const http = (i: number) => payOverHttp(client, payer, i)
    const bare = (i: number) => payOverHttp(bareClient, payer, i)
    // Warm-up and counted pairs are numbered below zero, apart from the measured ones.
    await warmUp(httpWarmUp.pairs, (i) => inProcess(-1 - i))
    await warmUp(httpWarmUp.pairs, (i) => http(-1 - i))
    await warmUp(httpWarmUp.pairs, (i) => bare(-1 - i))
    const pairs = await inTurns(budget.rounds, {
      inProcess: repeat(budget.pairsPerSlice, inProcess),
      http: repeat(budget.pairsPerSlice, http),
      bare: repeat(budget.pairsPerSlice, bare),
    })
    const counted = (i: number) => -1 - httpWarmUp.pairs - i
    const trips = {
      get: await statementsEach(countedOperations, () =>
        client.expect(200, "GET", `/api/v1/companies/${payer.companyId}`),
      ),
      pairInProcess: await statementsEach(countedOperations, (i) => inProcess(counted(i))),
      pairOverHttp: await statementsEach(countedOperations, (i) => http(counted(countedOperations + i))),
    }
    return { get, pairs, trips }
  } finally {
    bareClient.close()
    await bareServer.close()
    client.close()
    await server.close()
  }
}
