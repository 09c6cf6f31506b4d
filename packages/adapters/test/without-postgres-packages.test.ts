import { spawn } from "node:child_process"
import { once } from "node:events"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/*
 * pg and graphile-worker are optional peer dependencies: an embedder on SQLite does not install
 * them. The repository has them (its tests need them), so a child process is made to run as if
 * they were absent, and uses the main and testing entries there. `.ci/consumer` checks the same
 * on a real install without them.
 */

const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url))

/** `--import` of this makes pg and graphile-worker unresolvable in a child process. */
const withoutPostgresPackages = fileURLToPath(new URL("./without-postgres/register.mjs", import.meta.url))

/** Runs an ES module `script` from the repository root, on our sources, without pg and graphile-worker. */
const runWithoutPostgresPackages = async (script: string) => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  // openTestPostgres must choose PGlite, as it does for a user without a server.
  delete env.DATABASE_URL
  const child = spawn(
    process.execPath,
    [
      "--conditions=source",
      "--import",
      "tsx",
      "--import",
      withoutPostgresPackages,
      "--input-type=module",
      "-e",
      script,
    ],
    { cwd: repositoryRoot, env, stdio: ["ignore", "pipe", "pipe"] },
  )
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const [code] = (await once(child, "close")) as [number | null]
  return { code, stdout, stderr }
}

/** What the child saw, one JSON object on its standard output. */
interface Observed {
  readonly sqlite: { readonly dialect: string; readonly companies: number }
  readonly postgresUrl: string
  readonly testSqlite: string
  readonly testPGlite: string
  readonly postgresSubpath: string
}

const script = `
const observed = {}
const describe = (error) => (error instanceof Error ? error.message : String(error))
const adapters = await import("@payments-engine/adapters")
const storage = await adapters.openStorageFromUrl("sqlite::memory:")
try {
  const companies = await storage.db.selectFrom("companies").selectAll().execute()
  observed.sqlite = { dialect: storage.dialect.name, companies: companies.length }
} finally {
  await storage.close()
}
observed.postgresUrl = await adapters
  .openStorageFromUrl("postgres://postgres@127.0.0.1:1/none")
  .then(() => "opened", describe)
const testing = await import("@payments-engine/adapters/testing")
for (const [name, source] of [["testSqlite", testing.openTestSqlite()], ["testPGlite", testing.openTestPostgres()]]) {
  try {
    observed[name] = (await source.factory()).dialect.name
  } finally {
    await source.close()
  }
}
observed.postgresSubpath = await import("@payments-engine/adapters/postgres").then(() => "loaded", describe)
process.stdout.write(JSON.stringify(observed))
`

describe("@payments-engine/adapters without pg and graphile-worker installed", () => {
  it("opens SQLite and PGlite storages from the main and testing entries, and says what to install for Postgres", async () => {
    const run = await runWithoutPostgresPackages(script)
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" })
    const observed = JSON.parse(run.stdout) as Observed
    expect(observed).toEqual({
      sqlite: { dialect: "sqlite", companies: 0 },
      postgresUrl:
        "a postgres:// DATABASE_URL needs the pg and graphile-worker packages: npm install pg graphile-worker",
      testSqlite: "sqlite",
      testPGlite: "postgres",
      // The subpath does need them: proof that the child really runs without them.
      postgresSubpath: expect.stringMatching(/^Cannot find package '(pg|graphile-worker)'/),
    })
  })
})
