import { setTimeout as delay } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { childEnvironment, logMessage, runNode, startNode } from "./support/child-process.ts"
import { processRig } from "./support/process-rig.ts"
import { testJwtSecret } from "./support/test-service.ts"

/*
 * Two service processes on one Postgres database: a key revoked by the operator command stops
 * working on both, the session endpoint at once and the bearer tokens once each process's key
 * cache expires (here 1 s, through PAYMENTS_KEY_CACHE_SECONDS).
 */

const { running, serverUrl, postgresUrl } = processRig("keys")
const bin = fileURLToPath(new URL("../bin/payments-engine.js", import.meta.url))
/** One schema for the file, made on first use (the tests are skipped without a server). */
let schemaUrl: string | undefined
const databaseUrl = () => {
  schemaUrl ??= postgresUrl("revocation")
  return schemaUrl
}

/** Starts `npm start`'s entry point and answers its URL once it listens. */
const startService = async (env: Record<string, string>) => {
  const service = startNode(
    ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"],
    childEnvironment({
      PORT: "0",
      DATABASE_URL: databaseUrl(),
      PAYMENTS_JWT_SECRET: testJwtSecret,
      PAYMENTS_KEY_CACHE_SECONDS: "1",
      ...env,
    }),
  )
  running.add(service)
  const line = await service.waitForLine(logMessage("listening"))
  return (JSON.parse(line) as { url: string }).url
}

const credentials = { api_key: "pk_two_processes", api_secret: "sk_two_processes_secret" }

const signIn = (url: string) =>
  fetch(`${url}/api/v1/sessions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(credentials),
  })
const companies = async (url: string, token: string) =>
  (await fetch(`${url}/api/v1/companies`, { headers: { Authorization: `Bearer ${token}` } })).status

/** Asks until the token is refused, for at most `ms`; the last status seen. */
const statusOnceRefused = async (url: string, token: string, ms: number) => {
  const deadline = Date.now() + ms
  let status = await companies(url, token)
  while (status !== 401 && Date.now() < deadline) {
    await delay(100)
    status = await companies(url, token)
  }
  return status
}

describe.skipIf(serverUrl === undefined)("revoking a key with two service processes on one Postgres", () => {
  it("refuses its sessions at once and its tokens on the other process within the key cache's time", async () => {
    const first = await startService({
      PAYMENTS_API_KEY: credentials.api_key,
      PAYMENTS_API_SECRET: credentials.api_secret,
    })
    const second = await startService({})
    const session = await signIn(first)
    expect(session.status).toBe(201)
    const token = ((await session.json()) as { data: { access_token: string } }).data.access_token
    expect(await companies(second, token)).toBe(200)
    expect(await companies(first, token)).toBe(200)

    const revoked = await runNode(
      [bin, "keys", "revoke", credentials.api_key],
      childEnvironment({ DATABASE_URL: databaseUrl() }),
    )
    // Standard error names the database the command opened, and nothing else.
    expect(revoked).toMatchObject({ code: 0, stderr: expect.stringMatching(/^Database: (SQLite|Postgres) [^\n]+\n$/) })

    expect((await signIn(second)).status).toBe(401)
    // The cache lasts 1 s; the margin is for a loaded machine, not for the service.
    expect(await statusOnceRefused(second, token, 10_000)).toBe(401)
    expect(await statusOnceRefused(first, token, 10_000)).toBe(401)
  }, 90_000)
})
