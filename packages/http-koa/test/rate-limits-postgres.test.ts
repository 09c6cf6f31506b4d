import { randomBytes } from "node:crypto"
import { createRateLimitTable, openPostgresRateLimitStore } from "@payments-engine/adapters/postgres"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { childEnvironment, type LineWatcher, logMessage, startNode } from "./support/child-process.ts"
import { readResponse, type TestResponse } from "./support/test-service.ts"

/*
 * Several processes on one Postgres database count against the same limits: two real service
 * processes on a database of this test's own, created here and dropped after.
 */

const serverUrl = process.env.DATABASE_URL
const databaseName = `rate_limits_${randomBytes(6).toString("hex")}`
const databaseUrl = (() => {
  if (serverUrl === undefined) return ""
  const url = new URL(serverUrl)
  url.pathname = `/${databaseName}`
  return url.toString()
})()
const main = ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"]
const running = new Set<LineWatcher>()

const onServer = async (sql: string) => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  if (serverUrl !== undefined) await onServer(`create database "${databaseName}"`)
})

afterAll(async () => {
  for (const service of running) {
    service.child.kill("SIGTERM")
    await service.exited
  }
  if (serverUrl !== undefined) await onServer(`drop database if exists "${databaseName}" with (force)`)
})

const apiKey = "pk_rate_limits"
const apiSecret = "sk_rate_limits_0123456789"

const start = async () => {
  const service = startNode(
    main,
    childEnvironment({
      PORT: "0",
      LOG_LEVEL: "info",
      DATABASE_URL: databaseUrl,
      PAYMENTS_JWT_SECRET: "j".repeat(40),
      PAYMENTS_API_KEY: apiKey,
      PAYMENTS_API_SECRET: apiSecret,
      PAYMENTS_RATE_LIMIT_GENERAL: "6",
      PAYMENTS_RATE_LIMIT_FAILED_SESSIONS: "3",
      // The tests play clients at several addresses through X-Forwarded-For.
      PAYMENTS_TRUSTED_PROXY_HOPS: "1",
    }),
  )
  running.add(service)
  return (JSON.parse(await service.waitForLine(logMessage("listening"))) as { url: string }).url
}

const send = async (url: string, path: string, init: RequestInit = {}): Promise<TestResponse> =>
  readResponse(await fetch(`${url}${path}`, init))

const signIn = (url: string, from = "192.0.2.1", secret = apiSecret) =>
  send(url, "/api/v1/sessions", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
    body: JSON.stringify({ api_key: apiKey, api_secret: secret }),
  })

const listCompanies = (url: string, token: string) =>
  send(url, "/api/v1/companies", { headers: { Authorization: `Bearer ${token}` } })

const remaining = (response: TestResponse) => response.headers.get("x-ratelimit-remaining")

describe.skipIf(serverUrl === undefined)("rate limits of several processes on one Postgres database", () => {
  it("hold across two processes: requests to either count against one limit", async () => {
    // One after the other: starting together on an empty database is another test's subject.
    const first = await start()
    const second = await start()
    const session = await signIn(first)
    expect(session.status).toBe(201)
    const token = session.body.data.access_token as string

    const answers: Array<TestResponse> = []
    for (let i = 0; i < 6; i++) answers.push(await listCompanies(i % 2 === 0 ? first : second, token))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200])
    expect(answers.map(remaining)).toEqual(["5", "4", "3", "2", "1", "0"])
    for (const url of [first, second]) {
      const refused = await listCompanies(url, token)
      expect(refused.status).toBe(429)
      expect(refused.body).toEqual({
        errors: [{ field: "base", message: "Rate limit exceeded. Please try again later." }],
      })
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    }

    // Failed sessions per key and address: three wrong secrets from one address, on either
    // process, spend that address's attempts at the key on both; the owner elsewhere signs in.
    const guesses = [first, second, first].map((url, i) => signIn(url, "198.51.100.7", `sk_guess_${i}`))
    expect((await Promise.all(guesses)).map((answer) => answer.status)).toEqual([401, 401, 401])
    expect((await signIn(second, "198.51.100.7")).status).toBe(429)
    expect((await signIn(first, "198.51.100.7")).status).toBe(429)
    expect((await signIn(second, "192.0.2.1")).status).toBe(201)
    expect((await signIn(first, "192.0.2.1")).status).toBe(201)
  }, 60_000)

  it("create their table safely when several processes start at once", async () => {
    const schema = `concurrent_${randomBytes(4).toString("hex")}`
    // Connected beforehand, so that the creations meet in the database rather than in connecting.
    const pools = Array.from({ length: 12 }, () => new pg.Pool({ connectionString: databaseUrl, max: 1 }))
    try {
      await Promise.all(pools.map((pool) => pool.query("select 1")))
      const created = await Promise.allSettled(pools.map((pool) => createRateLimitTable(pool, schema)))
      const failures = created.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []))
      expect(failures).toEqual([])
    } finally {
      await Promise.all(pools.map((pool) => pool.end()))
    }
    const store = await openPostgresRateLimitStore({ connectionString: databaseUrl, schema })
    try {
      const counter = store.counter({ name: "probe", points: 2, windowSeconds: 60 })
      expect((await counter.consume("k")).remaining).toBe(1)
    } finally {
      await store.close()
    }
  })
})
