import { once } from "node:events"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import Database from "better-sqlite3"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { createApp } from "../src/binding/app.ts"
import { bearerTokens } from "../src/binding/bearer-tokens.ts"
import { createLogger } from "../src/binding/logger.ts"
import { readinessReport } from "../src/binding/readiness.ts"
import { loadConfig } from "../src/service/config.ts"
import { type RunningService, startService } from "../src/service/server.ts"
import { logMessage } from "./support/child-process.ts"
import { processRig } from "./support/process-rig.ts"
import { fastHasher, startTestService, testJwtSecret } from "./support/test-service.ts"

/**
 * `GET /ready` of the service `serve` runs: 200 while its database answers with every migration
 * run, its job runner runs and it is not shutting down; 503 naming the failing checks otherwise.
 * `/health` is liveness and stays 200 throughout.
 */
const { folder, running, serverUrl, postgresUrl, startRecordingService } = processRig("ready")

const allPass = { database: "pass", migrations: "pass", job_runner: "pass", shutdown: "pass" }

const probe = async (url: string, path = "/ready") => {
  const response = await fetch(`${url}${path}`)
  return { status: response.status, body: (await response.json()) as unknown }
}

const notReady = (failed: ReadonlyArray<string>) => ({
  status: 503,
  body: {
    status: "not_ready",
    checks: { ...allPass, ...Object.fromEntries(failed.map((name) => [name, "fail"])) },
    failed,
  },
})
const ready = { status: 200, body: { status: "ready", checks: allPass, failed: [] } }

/** A service started in this process (so that a test can stop its runner or begin its shutdown). */
const startHere = (databaseUrl: string): Promise<RunningService> =>
  startService(
    loadConfig({
      PORT: "0",
      DATABASE_URL: databaseUrl,
      PAYMENTS_API_KEY: "pk_ready",
      PAYMENTS_API_SECRET: "sk_ready_0123",
      PAYMENTS_SANDBOX: "true",
    }),
    { logger: createLogger({ level: "silent" }), hasher: fastHasher(), host: "127.0.0.1", print: () => {} },
  )

/** The url a child service logged in its `listening` line. */
const urlOf = async (service: Awaited<ReturnType<typeof startRecordingService>>) =>
  (JSON.parse(await service.waitForLine(logMessage("listening"))) as { url: string }).url

describe("GET /ready on SQLite", () => {
  it("fails `migrations` while a migration is not recorded as run, and passes again once it is", async () => {
    const file = join(folder, "migrations.sqlite")
    const service = await startRecordingService({ DATABASE_URL: `sqlite:${file}` })
    const url = await urlOf(service)
    expect(await probe(url)).toEqual(ready)
    const database = new Database(file)
    const last = database.prepare("select name, timestamp from kysely_migration order by name desc limit 1").get() as {
      name: string
      timestamp: string
    }
    database.prepare("delete from kysely_migration where name = ?").run(last.name)
    expect(await probe(url)).toEqual(notReady(["migrations"]))
    expect(await probe(url, "/health")).toEqual({ status: 200, body: { status: "ok" } })
    database.prepare("insert into kysely_migration (name, timestamp) values (?, ?)").run(last.name, last.timestamp)
    database.close()
    expect(await probe(url)).toEqual(ready)
    service.child.kill("SIGTERM")
    await service.exited
    running.delete(service)
  })

  it("fails `job_runner` once the runner stopped, and `database` once the storage is closed", async () => {
    const service = await startHere(`sqlite:${join(folder, "runner.sqlite")}`)
    try {
      expect(await probe(service.url)).toEqual(ready)
      await service.engine.jobs.stop()
      expect(await probe(service.url)).toEqual(notReady(["job_runner"]))
      await service.engine.close()
      expect(await probe(service.url)).toEqual(notReady(["database", "migrations", "job_runner"]))
      expect(await probe(service.url, "/health")).toEqual({ status: 200, body: { status: "ok" } })
    } finally {
      await service.close()
    }
  })
})

describe.skipIf(serverUrl === undefined)("GET /ready on Postgres", () => {
  const databases: Array<string> = []
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      return await work(client)
    } finally {
      await client.end()
    }
  }
  afterAll(() =>
    admin(async (client) => {
      for (const name of databases) await client.query(`drop database if exists "${name}" with (force)`)
    }),
  )

  it("fails `database` once the service's database is gone, naming no error", async () => {
    const name = `ready_gone_${process.pid}_${Date.now()}`
    databases.push(name)
    await admin((client) => client.query(`create database "${name}"`))
    const databaseUrl = new URL(serverUrl as string)
    databaseUrl.pathname = `/${name}`
    const service = await startRecordingService({ DATABASE_URL: databaseUrl.toString(), PAYMENTS_SANDBOX: "true" })
    const url = await urlOf(service)
    expect(await probe(url)).toEqual(ready)
    await admin((client) => client.query(`drop database "${name}" with (force)`))
    expect(await probe(url)).toEqual(notReady(["database", "migrations"]))
    expect(await probe(url, "/health")).toEqual({ status: 200, body: { status: "ok" } })
    expect(service.child.exitCode).toBeNull()
  })

  it("fails `shutdown` and `job_runner` for a probe answered after the shutdown began", async () => {
    const databaseUrl = postgresUrl("shutdown")
    const service = await startHere(databaseUrl)
    const schema = new URL(databaseUrl).searchParams.get("schema") as string
    expect(await probe(service.url)).toEqual(ready)
    // The probe's read of the migrations table waits for this lock, so the shutdown begins while it is in flight.
    const locker = new pg.Client({ connectionString: serverUrl })
    await locker.connect()
    await locker.query("begin")
    await locker.query(`lock table "${schema}".kysely_migration in access exclusive mode`)
    const answer = probe(service.url)
    const waiting = async () =>
      (
        await locker.query("select count(*)::int as n from pg_locks where not granted and relation = $1::regclass", [
          `"${schema}".kysely_migration`,
        ])
      ).rows[0].n as number
    while ((await waiting()) === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    const closed = service.close()
    await locker.query("commit")
    await locker.end()
    expect(await answer).toEqual(notReady(["job_runner", "shutdown"]))
    await closed
  })
})

describe("GET /ready of an app an embedder mounts", () => {
  const sqlite = openTestSqlite()
  afterAll(sqlite.close)

  it("reports what the embedder's `readiness` and `isClosing` say, and 200 without them", async () => {
    const host = await startTestService({ storage: await sqlite.factory() })
    const engine = host.engine
    const tokens = bearerTokens({ secret: testJwtSecret, confirm: (claims) => engine.access.tokenActor(claims) })
    let closing = false
    let databaseUp = true
    const apps = {
      bare: createApp({ engine, tokens }),
      closing: createApp({ engine, tokens, isClosing: () => closing }),
      checked: createApp({ engine, tokens, readiness: async () => readinessReport({ database: databaseUp }) }),
    }
    const urls: Record<string, string> = {}
    const servers = Object.entries(apps).map(([name, app]) => {
      const server = app.listen(0, "127.0.0.1")
      return once(server, "listening").then(() => {
        urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        return server
      })
    })
    const listening = await Promise.all(servers)
    try {
      expect(await probe(urls.bare as string)).toEqual({
        status: 200,
        body: { status: "ready", checks: { shutdown: "pass" }, failed: [] },
      })
      closing = true
      expect(await probe(urls.closing as string)).toEqual({
        status: 503,
        body: { status: "not_ready", checks: { shutdown: "fail" }, failed: ["shutdown"] },
      })
      expect((await probe(urls.checked as string)).status).toBe(200)
      databaseUp = false
      expect(await probe(urls.checked as string)).toEqual({
        status: 503,
        body: { status: "not_ready", checks: { database: "fail" }, failed: ["database"] },
      })
    } finally {
      for (const server of listening) server.close()
      await host.close()
    }
  })
})
