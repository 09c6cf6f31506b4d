import { once } from "node:events"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openStorageFromUrl } from "@payments-engine/adapters"
import { kyselyStorageOf } from "@payments-engine/adapters/kysely"
import { verifyWebhookSignature } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createLogger } from "../src/binding/logger.ts"
import { loadConfig } from "../src/service/config.ts"
import { type RunningService, startService } from "../src/service/server.ts"
import { legacySecretSetting, serverSecretFor } from "../src/service/server-secret.ts"
import { StartupError } from "../src/service/startup-error.ts"
import { fastHasher, readResponse, type TestResponse } from "./support/test-service.ts"

/*
 * Sandbox mode without PAYMENTS_JWT_SECRET: the generated server secret, from which every key of
 * the engine is derived, lives in a file of mode 0600 beside the SQLite file, never in the
 * database; a database that still keeps one (as earlier versions did) hands it to the file and
 * forgets it, and what was sealed or signed under it keeps working.
 */

const folders: Array<string> = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})
const freshFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), "pe-secret-"))
  folders.push(folder)
  return folder
}

const apiKey = "pk_server_secret_test"
const apiSecret = "sk_server_secret_test_secret"

const start = (databaseUrl: string, env: Record<string, string> = {}): Promise<RunningService> =>
  startService(
    loadConfig({
      PORT: "0",
      DATABASE_URL: databaseUrl,
      PAYMENTS_API_KEY: apiKey,
      PAYMENTS_API_SECRET: apiSecret,
      ...env,
    }),
    { logger: createLogger({ level: "silent" }), hasher: fastHasher(), host: "127.0.0.1" },
  )

const signIn = async (service: RunningService): Promise<string> => {
  const session = await readResponse(
    await fetch(`${service.url}/api/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: apiKey, api_secret: apiSecret }),
    }),
  )
  expect(session.status).toBe(201)
  return session.body.data.access_token as string
}

const call = async (
  service: RunningService,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> =>
  readResponse(
    await fetch(`${service.url}${path}`, {
      method,
      headers: {
        ...headers,
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  )

/** Every row of the `settings` table, read straight from the database. */
const settingsOf = async (databaseUrl: string) => {
  const storage = kyselyStorageOf(await openStorageFromUrl(databaseUrl))
  try {
    return await storage.db.selectFrom("settings").selectAll().execute()
  } finally {
    await storage.close()
  }
}

const putSetting = async (databaseUrl: string, name: string, value: string) => {
  const storage = await openStorageFromUrl(databaseUrl)
  try {
    await storage.transaction((tx) => tx.settings.putIfAbsent(name, value))
  } finally {
    await storage.close()
  }
}

const fileMode = (path: string) => statSync(path).mode & 0o777

describe("a fresh start in sandbox mode without PAYMENTS_JWT_SECRET", () => {
  it("writes the secret to server-secret beside the database, mode 0600, and keeps nothing secret in the database", async () => {
    const folder = freshFolder()
    const databaseUrl = `sqlite:${join(folder, "payments.sqlite")}`
    const first = await start(databaseUrl)
    const token = await signIn(first)
    await first.close()

    const file = join(folder, "server-secret")
    const secret = readFileSync(file, "utf8").trim()
    expect(secret).toMatch(/^[\w-]{43}$/)
    expect(fileMode(file)).toBe(0o600)
    expect(readdirSync(folder).filter((name) => name.endsWith(".tmp"))).toEqual([])
    const settings = await settingsOf(databaseUrl)
    expect(settings.filter((row) => row.name === legacySecretSetting || row.value.includes(secret))).toEqual([])

    // The next start reads the same secret back: a token of the first start still works.
    const second = await start(databaseUrl)
    try {
      expect((await call(second, token, "GET", "/api/v1/companies")).status).toBe(200)
      expect(readFileSync(file, "utf8").trim()).toBe(secret)
    } finally {
      await second.close()
    }
  })

  it("is created once when many resolve it at the same moment: all get the one the file keeps", async () => {
    const folder = freshFolder()
    const storage = await openStorageFromUrl(`sqlite:${join(folder, "payments.sqlite")}`)
    try {
      const config = { jwtSecret: undefined, serverSecretFile: join(folder, "server-secret") }
      const secrets = await Promise.all(Array.from({ length: 20 }, () => serverSecretFor(config, storage)))
      expect(new Set(secrets)).toEqual(new Set([readFileSync(config.serverSecretFile, "utf8").trim()]))
      expect(readdirSync(folder).filter((name) => name.endsWith(".tmp"))).toEqual([])
    } finally {
      await storage.close()
    }
  })

  it("keeps the secret at PAYMENTS_SECRET_FILE when set, creating its folder", async () => {
    const folder = freshFolder()
    const file = join(folder, "secrets", "payments")
    const service = await start(`sqlite:${join(folder, "payments.sqlite")}`, { PAYMENTS_SECRET_FILE: file })
    await service.close()
    expect(readFileSync(file, "utf8").trim()).toMatch(/^[\w-]{43}$/)
    expect(fileMode(file)).toBe(0o600)
    expect(readdirSync(folder)).not.toContain("server-secret")
  })

  it("writes no file with PAYMENTS_JWT_SECRET set", async () => {
    const folder = freshFolder()
    const service = await start(`sqlite:${join(folder, "payments.sqlite")}`, {
      PAYMENTS_JWT_SECRET: "a-configured-jwt-secret-0123456789abcdef",
    })
    await service.close()
    expect(readdirSync(folder)).not.toContain("server-secret")
  })
})

describe("a database that keeps its generated secret in settings (before this version)", () => {
  const received: Array<{ headers: IncomingHttpHeaders; body: Buffer }> = []
  const receiver = createServer(async (req, res) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    received.push({ headers: req.headers, body: Buffer.concat(chunks) })
    res.writeHead(200).end()
  })
  let receiverUrl = ""
  beforeAll(async () => {
    receiver.listen(0, "127.0.0.1")
    await once(receiver, "listening")
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  })
  afterAll(() => {
    receiver.closeAllConnections()
    receiver.close()
  })

  it("moves it to the file and erases it; its tokens, sealed webhook secrets and idempotent answers still work", async () => {
    const folder = freshFolder()
    const databaseUrl = `sqlite:${join(folder, "payments.sqlite")}`
    const legacy = "a-generated-secret-kept-in-the-database-0123"
    // What an earlier version did in sandbox mode: every key derived from the secret in settings.
    const before = await start(databaseUrl, { PAYMENTS_JWT_SECRET: legacy })
    const token = await signIn(before)
    const acme = { name: "Acme", country: "US", default_currency: "USD" }
    const company = await call(before, token, "POST", "/api/v1/companies", acme, { "Idempotency-Key": "old-key" })
    expect(company.status).toBe(201)
    const cid = company.body.data.id as string
    const endpoint = await call(before, token, "POST", `/api/v1/companies/${cid}/webhook_endpoints`, {
      url: receiverUrl,
      event_names: ["entity.created"],
    })
    expect(endpoint.status).toBe(201)
    await before.close()
    await putSetting(databaseUrl, legacySecretSetting, legacy)

    const after = await start(databaseUrl)
    try {
      const file = join(folder, "server-secret")
      expect(readFileSync(file, "utf8").trim()).toBe(legacy)
      expect(fileMode(file)).toBe(0o600)
      expect(await settingsOf(databaseUrl)).not.toContainEqual(expect.objectContaining({ name: legacySecretSetting }))

      expect((await call(after, token, "GET", `/api/v1/companies/${cid}`)).status).toBe(200)
      const replay = await call(after, token, "POST", "/api/v1/companies", acme, { "Idempotency-Key": "old-key" })
      expect({
        status: replay.status,
        replayed: replay.headers.get("idempotent-replayed"),
        id: replay.body.data.id,
      }).toEqual({ status: 201, replayed: "true", id: cid })
      const entity = await call(after, token, "POST", `/api/v1/companies/${cid}/entities`, {
        name: "Acme",
        country_alpha2: "US",
      })
      expect(entity.status).toBe(201)
      const until = Date.now() + 10_000
      while (received.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
      const [delivery] = received
      expect(delivery).toBeDefined()
      const signed = await verifyWebhookSignature(
        delivery?.body ?? Buffer.alloc(0),
        delivery?.headers ?? {},
        endpoint.body.data.webhook_secret,
      )
      expect(signed.valid).toBe(true)
    } finally {
      await after.close()
    }
  })

  it("refuses to start when the file holds another secret, and keeps the database's", async () => {
    const folder = freshFolder()
    const databaseUrl = `sqlite:${join(folder, "payments.sqlite")}`
    const legacy = "a-generated-secret-kept-in-the-database-4567"
    await putSetting(databaseUrl, legacySecretSetting, legacy)
    const file = join(folder, "server-secret")
    writeFileSync(file, "another-database-s-secret-0123456789abcdef\n", { mode: 0o600 })
    const failed = await start(databaseUrl).then(
      (service) => service.close().then(() => undefined),
      (error: unknown) => error,
    )
    expect(failed).toBeInstanceOf(StartupError)
    expect((failed as Error).message).toContain(file)
    expect((failed as Error).message).toContain("PAYMENTS_SECRET_FILE")
    expect(await settingsOf(databaseUrl)).toContainEqual({ name: legacySecretSetting, value: legacy })
    expect(readFileSync(file, "utf8").trim()).toBe("another-database-s-secret-0123456789abcdef")
  })
})
