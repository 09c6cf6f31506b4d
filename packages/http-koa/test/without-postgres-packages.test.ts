import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { childEnvironment, type LineWatcher, logMessage, runNode, startNode } from "./support/child-process.ts"

/*
 * pg (and graphile-worker, which the Postgres storage needs) are optional peer dependencies: a
 * service on SQLite runs without them. The repository has them, so these children run as if they
 * were absent. `.ci/consumer` checks the same on a real install without them.
 */

/** Node's flags that make pg and graphile-worker unresolvable in a child (the adapters' tests' hook). */
const withoutPostgresPackages = [
  "--import",
  fileURLToPath(new URL("../../adapters/test/without-postgres/register.mjs", import.meta.url)),
]

/** `npm start`, without pg and graphile-worker. */
const main = [
  "--conditions=source",
  "--import",
  "tsx",
  ...withoutPostgresPackages,
  "packages/http-koa/src/service/main.ts",
]
/** The `payments-engine` command, without pg and graphile-worker (it loads tsx itself). */
const command = [...withoutPostgresPackages, "packages/http-koa/bin/payments-engine.js"]
const unreachablePostgres = "postgres://postgres@127.0.0.1:1/none"
const installHint =
  "a postgres:// DATABASE_URL needs the pg and graphile-worker packages: npm install pg graphile-worker"

const running = new Set<LineWatcher>()
afterAll(() => {
  for (const service of running) service.child.kill("SIGKILL")
})

describe("@payments-engine/http-koa without pg and graphile-worker installed", () => {
  it("serves on SQLite", async () => {
    const service = startNode(main, childEnvironment({ PORT: "0", DATABASE_URL: "sqlite::memory:", LOG_LEVEL: "info" }))
    running.add(service)
    const { url } = JSON.parse(await service.waitForLine(logMessage("listening"))) as { url: string }
    const health = await fetch(`${url}/health`)
    expect(health.status).toBe(200)
    service.child.kill("SIGTERM")
    expect(await service.exited).toBe(0)
    running.delete(service)
    expect(service.stderr()).toBe("")
  })

  it("refuses to start on Postgres, saying what to install", async () => {
    const run = await runNode(main, childEnvironment({ DATABASE_URL: unreachablePostgres, PAYMENTS_SANDBOX: "true" }))
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: `Cannot start the payments engine: Cannot open the database of DATABASE_URL (postgres): ${installHint}\n`,
    })
  })

  it("gives the command's database error, saying what to install", async () => {
    const run = await runNode([...command, "keys", "list"], childEnvironment({ DATABASE_URL: unreachablePostgres }))
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: `Cannot open the database of DATABASE_URL: ${installHint}\n`,
    })
  })

  it("loads its main entry, but not the adapters' /postgres subpath it loads on Postgres, which does need pg (so the children above ran without it)", async () => {
    const script = `
      const service = await import("@payments-engine/http-koa")
      console.log("main entry:", typeof service.startService)
      await import("@payments-engine/adapters/postgres")`
    const run = await runNode(
      ["--conditions=source", "--import", "tsx", ...withoutPostgresPackages, "--input-type=module", "-e", script],
      childEnvironment({}),
    )
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: "main entry: function\n" })
    expect(run.stderr).toMatch(/Cannot find package '(pg|graphile-worker)'/)
  })
})
