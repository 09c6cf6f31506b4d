import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openStorageFromUrl } from "@payments-engine/adapters"
import { kyselyStorageOf } from "@payments-engine/adapters/kysely"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { legacySecretSetting } from "../src/service/server-secret.ts"
import { childEnvironment, type LineWatcher, logMessage, startNode } from "./support/child-process.ts"
import { readResponse } from "./support/test-service.ts"

/*
 * Two `npm start` processes at the same moment on an empty Postgres database, ten times, with and
 * without PAYMENTS_API_KEY: both migrate, both serve, and the bootstrap key exists exactly once.
 * In sandbox mode without PAYMENTS_JWT_SECRET, both use one generated secret from one file. Each
 * trial has a database of its own, so trials run a few at a time.
 */

const main = ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"]
const serverUrl = process.env.DATABASE_URL
const trials = 10
/** Trials at once: each starts two processes, and the machine has few cores. */
const trialsAtOnce = 3
const running = new Set<LineWatcher>()
const databases: Array<string> = []
const secretFolder = mkdtempSync(join(tmpdir(), "pe-startup-secret-"))

const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

afterAll(async () => {
  for (const service of running) service.child.kill("SIGKILL")
  rmSync(secretFolder, { recursive: true, force: true })
  if (serverUrl === undefined) return
  await admin(async (client) => {
    for (const name of databases) await client.query(`drop database if exists "${name}" with (force)`)
  })
})

const freshDatabase = async (label: string): Promise<string> => {
  const name = `startup_${label}_${process.pid}_${Date.now()}`
  databases.push(name)
  await admin((client) => client.query(`create database "${name}"`))
  const url = new URL(serverUrl as string)
  url.pathname = `/${name}`
  return url.toString()
}

const dropDatabase = (url: string) =>
  admin((client) => client.query(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`))

const sessionStatus = async (url: string, apiKey: string, apiSecret: string) =>
  (
    await fetch(`${url}/api/v1/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ api_key: apiKey, api_secret: apiSecret }),
    })
  ).status

interface Started {
  readonly service: LineWatcher
  readonly url: string
}

/** Starts two processes on one database at once; both must reach `listening` and answer `/health`. */
const startTwo = async (databaseUrl: string, env: Record<string, string>): Promise<Array<Started>> => {
  const services = [0, 1].map(() => {
    const service = startNode(
      main,
      childEnvironment({
        PORT: "0",
        DATABASE_URL: databaseUrl,
        PAYMENTS_JWT_SECRET: "j".repeat(40),
        LOG_LEVEL: "info",
        ...env,
      }),
    )
    running.add(service)
    return service
  })
  const started = await Promise.all(
    services.map(async (service) => {
      const listening = JSON.parse(await service.waitForLine(logMessage("listening")))
      return { service, url: listening.url as string }
    }),
  )
  for (const { url } of started) {
    const health = await readResponse(await fetch(`${url}/health`))
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { status: "ok" } })
  }
  return started
}

const stopAll = async (started: ReadonlyArray<Started>) => {
  for (const { service } of started) {
    service.child.kill("SIGTERM")
    expect(await service.exited).toBe(0)
    running.delete(service)
  }
}

const keyLinesOf = (started: ReadonlyArray<Started>) =>
  started.flatMap(({ service }) => service.lines.filter((line) => /^API (key|secret): /.test(line)))

/** Runs `trial(i)` for every i below `count`, `trialsAtOnce` at a time. */
const inBatches = async (trial: (i: number) => Promise<void>, count = trials) => {
  for (let first = 0; first < count; first += trialsAtOnce) {
    const batch = Array.from({ length: Math.min(trialsAtOnce, count - first) }, (_, k) => first + k)
    await Promise.all(batch.map(trial))
  }
}

describe.skipIf(serverUrl === undefined)("two processes starting together on an empty Postgres database", () => {
  it(`both serve and exactly one prints the bootstrap key, ${trials} times`, async () => {
    await inBatches(async (i) => {
      const databaseUrl = await freshDatabase(`generated${i}`)
      const started = await startTwo(databaseUrl, {})
      try {
        const lines = keyLinesOf(started)
        expect(lines, `trial ${i}`).toEqual([
          expect.stringMatching(/^API key: pk_\S+$/),
          expect.stringMatching(/^API secret: sk_\S+$/),
        ])
        const apiKey = lines[0]?.slice("API key: ".length) as string
        const apiSecret = lines[1]?.slice("API secret: ".length) as string
        for (const { url } of started) expect(await sessionStatus(url, apiKey, apiSecret)).toBe(201)
      } finally {
        await stopAll(started)
        await dropDatabase(databaseUrl)
      }
    })
  }, 240_000)

  it(`both serve with the key of PAYMENTS_API_KEY and print none, ${trials} times`, async () => {
    await inBatches(async (i) => {
      const databaseUrl = await freshDatabase(`configured${i}`)
      const started = await startTwo(databaseUrl, {
        PAYMENTS_API_KEY: "pk_from_env",
        PAYMENTS_API_SECRET: "sk_from_env_secret",
      })
      try {
        expect(keyLinesOf(started), `trial ${i}`).toEqual([])
        for (const { url } of started) {
          expect(await sessionStatus(url, "pk_from_env", "sk_from_env_secret")).toBe(201)
          expect(await sessionStatus(url, "pk_from_env", "wrong")).toBe(401)
        }
      } finally {
        await stopAll(started)
        await dropDatabase(databaseUrl)
      }
    })
  }, 240_000)

  it("in sandbox mode without PAYMENTS_JWT_SECRET, both use one secret from one file, also one moved out of the database", async () => {
    // Two trials, one of each kind, in one batch: the race for the file itself is the in-process
    // test's (server-secret.test.ts); here the processes meet under Postgres's start-up lock.
    await inBatches(async (i) => {
      const databaseUrl = await freshDatabase(`secret${i}`)
      const secretFile = join(secretFolder, `trial-${i}`, "server-secret")
      // Odd trials start on a database an earlier version left its generated secret in.
      const legacy = i % 2 === 1 ? `a-secret-an-earlier-version-kept-${i}-0123456789` : undefined
      if (legacy !== undefined) {
        const storage = await openStorageFromUrl(databaseUrl)
        await storage.transaction((tx) => tx.settings.putIfAbsent(legacySecretSetting, legacy))
        await storage.close()
      }
      const started = await startTwo(databaseUrl, {
        PAYMENTS_JWT_SECRET: "",
        PAYMENTS_SANDBOX: "true",
        PAYMENTS_SECRET_FILE: secretFile,
        PAYMENTS_API_KEY: "pk_from_env",
        PAYMENTS_API_SECRET: "sk_from_env_secret",
      })
      try {
        // A token of either process is good at the other: they sign with one secret.
        for (const [from, to] of [started, started.slice().reverse()]) {
          const session = await readResponse(
            await fetch(`${from?.url}/api/v1/sessions`, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ api_key: "pk_from_env", api_secret: "sk_from_env_secret" }),
            }),
          )
          const token = session.body.data.access_token as string
          const listed = await fetch(`${to?.url}/api/v1/companies`, { headers: { Authorization: `Bearer ${token}` } })
          expect(listed.status, `trial ${i}`).toBe(200)
        }
        const secret = readFileSync(secretFile, "utf8").trim()
        expect(secret.length, `trial ${i}`).toBeGreaterThanOrEqual(32)
        if (legacy !== undefined) expect(secret, `trial ${i}`).toBe(legacy)
        expect(statSync(secretFile).mode & 0o777, `trial ${i}`).toBe(0o600)
        expect(readdirSync(join(secretFolder, `trial-${i}`)), `trial ${i}`).toEqual(["server-secret"])
        const storage = kyselyStorageOf(await openStorageFromUrl(databaseUrl))
        const settings = await storage.db.selectFrom("settings").selectAll().execute()
        await storage.close()
        expect(settings.filter((row) => row.name === legacySecretSetting || row.value.includes(secret))).toEqual([])
      } finally {
        await stopAll(started)
        await dropDatabase(databaseUrl)
      }
    }, 2)
  }, 240_000)
})
