import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { openSqliteStorage, parseStorageUrl, TestClock } from "@payments-engine/adapters"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { runCli, usage } from "../src/service/cli.ts"
import { databaseLabel } from "../src/service/database-label.ts"
import { createServiceEngine } from "../src/service/service-engine.ts"
import { childEnvironment, runNode } from "./support/child-process.ts"
import { expectError } from "./support/expectations.ts"
import { acme, fastHasher, startTestService } from "./support/test-service.ts"

const bin = fileURLToPath(new URL("../bin/payments-engine.js", import.meta.url))
const folder = mkdtempSync(join(tmpdir(), "payments-engine-cli-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const cli = (args: ReadonlyArray<string>, databaseUrl = `sqlite:${join(folder, "cli.sqlite")}`) =>
  runNode([bin, ...args], childEnvironment({ DATABASE_URL: databaseUrl }))

/** `runCli` in this process, its output captured. */
const runInProcess = async (
  args: ReadonlyArray<string>,
  databaseUrl = `sqlite:${join(folder, "in-process.sqlite")}`,
) => {
  const output = { stdout: "", stderr: "" }
  const code = await runCli(args, {
    env: { DATABASE_URL: databaseUrl },
    stdout: (text) => {
      output.stdout += text
    },
    stderr: (text) => {
      output.stderr += text
    },
  })
  return { code, ...output }
}

const printed = (stdout: string, label: string) => new RegExp(`^${label}: (\\S+)$`, "m").exec(stdout)?.[1]

describe("payments-engine keys create", () => {
  it("prints a key and secret once, which then open a session with their scope", async () => {
    const filename = join(folder, "keys.sqlite")
    const result = await cli(["keys", "create", "--workspace", "acme", "--scope", "read"], `sqlite:${filename}`)
    expect(result).toMatchObject({ code: 0, stderr: `Database: SQLite ${filename}\n` })
    const key = printed(result.stdout, "API key")
    const secret = printed(result.stdout, "API secret")
    expect(key).toMatch(/^pk_/)
    expect(secret).toMatch(/^sk_/)
    expect(result.stdout).toContain("Workspace: acme\nScope: read\n")

    const service = await startTestService({ storage: await openSqliteStorage({ filename }) })
    try {
      const session = await service.request("POST", "/api/v1/sessions", { body: { api_key: key, api_secret: secret } })
      expect(session.status).toBe(201)
      const token = session.body.data.access_token
      expect((await service.request("GET", "/api/v1/companies", { token })).status).toBe(200)
      expectError(
        await service.request("POST", "/api/v1/companies", { token, body: acme }),
        403,
        "base",
        "API key does not have permission for this action",
      )
    } finally {
      await service.close()
      await service.storage.close()
    }
  })

  it("creates write keys by default", async () => {
    const result = await cli(["keys", "create", "--workspace=globex"])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain("Scope: write\n")
  })

  it("prints the package's version for --version and -v, loading nothing but the command's own file", async () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string
    }
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/)
    // Every module but Node's own and the command's file is refused: the engine, tsx, the CLI's sources.
    // A URL loses its line breaks: one statement per semicolon.
    const refuseImports = `data:text/javascript,export const resolve = (specifier, context, next) => {
      if (specifier.startsWith("node:") || context.parentURL === undefined) return next(specifier, context);
      throw new Error("--version imported " + specifier);
    }`
    const hook = `data:text/javascript,import { register } from "node:module"; register(${JSON.stringify(refuseImports)})`
    for (const flag of ["--version", "-v"]) {
      const bare = await runNode(["--import", hook, bin, flag], childEnvironment({}))
      expect(bare).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" })
    }
    expect((await runNode(["--import", hook, bin, "keys", "list"], childEnvironment({}))).stderr).toContain("imported")
  })

  it("prints the usage for --help and exits 2 with the usage for bad arguments", async () => {
    const [help, bad] = await Promise.all([cli(["--help"]), cli(["keys", "create", "--scope", "read"])])
    expect(help).toEqual({ code: 0, stdout: usage, stderr: "" })
    expect(bad).toEqual({ code: 2, stdout: "", stderr: `payments-engine: --workspace <name> is required\n\n${usage}` })
  })

  it("answers every bad argument with the usage and exit code 2 (in process)", async () => {
    const cases: Array<[Array<string>, string]> = [
      [[], ""],
      [["keys", "create"], "--workspace <name> is required"],
      [["keys", "create", "--workspace"], "--workspace"],
      [["keys", "create", "--workspace", "acme", "--scope", "admin"], "--scope must be read or write, got admin"],
      [["keys", "create", "--workspace", "acme", "--bogus"], "Unknown option '--bogus'"],
      [["keys", "create", "--workspace", "acme", "extra"], "Unexpected argument: extra"],
      [["keys", "delete"], "Unknown command: keys delete"],
      [["keys", "revoke"], "<key> is required"],
      [["keys", "revoke", "pk_1", "pk_2"], "Unexpected argument: pk_2"],
      [["keys", "rotate"], "<key> is required"],
      [["keys", "rotate", "pk_1", "--grace", "3600"], "--grace must be a duration such as 30m, 2h or 7d"],
      [["keys", "rotate", "pk_1", "--grace", "31d"], "--grace must be a duration"],
      [["keys", "rotate", "pk_1", "--grace=-1h"], "--grace must be a duration"],
      [["keys", "rotate", "pk_1", "--grace", "1.5s"], "--grace must be a duration"],
      [["keys", "list", "extra"], "Unexpected argument: extra"],
      [["keys", "list", "--workspace", " "], "--workspace needs a name"],
      [["serve", "extra"], "Unexpected argument: extra"],
      [["server"], "Unknown command: server"],
      [["keys", "create", "--workspace", " ".repeat(3)], "--workspace <name> is required"],
      [["keys", "create", "--workspace", "w".repeat(101)], "workspace: must be 1 to 100 characters"],
      // After a create: list refuses a database that does not exist before the engine reads its arguments.
      [["keys", "list", "--workspace", "w".repeat(101)], "workspace: must be 1 to 100 characters"],
    ]
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await runInProcess(args)
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: "" })
      expect(stderr).toContain(message)
      expect(stderr).toContain(usage)
    }
    for (const args of [
      ["-h"],
      ["help"],
      ["keys", "--help"],
      ["keys", "create", "-h"],
      ["keys", "list", "-h"],
      ["keys", "revoke", "-h"],
      ["keys", "rotate", "--help"],
      ["serve", "--help"],
    ]) {
      expect({ args, ...(await runInProcess(args)) }).toEqual({ args, code: 0, stdout: usage, stderr: "" })
    }
  })

  it("exits 1 with a message when the database cannot be opened", async () => {
    const result = await cli(["keys", "create", "--workspace", "acme"], "mysql://nowhere")
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^Cannot open the database of DATABASE_URL: Unsupported DATABASE_URL scheme "mysql:"/)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})

describe("payments-engine keys list, revoke and rotate", () => {
  const filename = join(folder, "lifecycle.sqlite")
  const run = (args: ReadonlyArray<string>) => cli(args, `sqlite:${filename}`)
  /** The refusals run in this process: their wording is what matters, not the process. */
  const runHere = (args: ReadonlyArray<string>) => runInProcess(args, `sqlite:${filename}`)
  /** Keys made in this process (a cheap hash), which the command then works on. */
  const create = async (workspace: string, scope: "read" | "write" = "write") => {
    const storage = await openSqliteStorage({ filename })
    try {
      const engine = createServiceEngine({
        storage,
        hasher: fastHasher(),
        serverSecret: { read: async () => "cli-test-server-secret-0123456789abcdef" },
      })
      return await engine.access.createApiKey({ workspace, scope })
    } finally {
      await storage.close()
    }
  }
  /** Opens a session with the key and secret on a service over the same database file, at the command's time. */
  const sessionStatus = async (key: { api_key: string; api_secret: string }) => {
    const service = await startTestService({
      storage: await openSqliteStorage({ filename }),
      clock: new TestClock(new Date()),
    })
    try {
      const body = { api_key: key.api_key, api_secret: key.api_secret }
      return (await service.request("POST", "/api/v1/sessions", { body })).status
    } finally {
      await service.close()
      await service.storage.close()
    }
  }

  it("lists keys per workspace or all, revokes one for good, and rotates one with a grace period", async () => {
    const acmeWriter = await create("acme")
    const acmeReader = await create("acme", "read")
    const globex = await create("globex")

    const all = await run(["keys", "list"])
    expect(all).toMatchObject({ code: 0, stderr: `Database: SQLite ${filename}\n` })
    const lines = all.stdout.trimEnd().split("\n")
    expect(lines[0]).toMatch(/^KEY +WORKSPACE +SCOPE +CREATED +STATE$/)
    expect(lines).toHaveLength(4)
    expect(all.stdout).toMatch(
      new RegExp(`^${acmeWriter.api_key} +acme +write +\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z +active$`, "m"),
    )
    expect(all.stdout).toMatch(new RegExp(`^${acmeReader.api_key} +acme +read .* active$`, "m"))
    expect(all.stdout).toMatch(new RegExp(`^${globex.api_key} +globex +write .* active$`, "m"))
    const onlyAcme = await run(["keys", "list", "--workspace", "acme"])
    expect(onlyAcme.stdout).toContain(acmeReader.api_key)
    expect(onlyAcme.stdout).not.toContain(globex.api_key)
    expect(await runHere(["keys", "list", "--workspace", "nobody"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `Database: SQLite ${filename}\npayments-engine: workspace: Workspace not found\n`,
    })

    const revoked = await run(["keys", "revoke", acmeReader.api_key])
    expect(revoked).toMatchObject({ code: 0, stderr: `Database: SQLite ${filename}\n` })
    expect(revoked.stdout).toMatch(new RegExp(`^Revoked: ${acmeReader.api_key} \\(workspace acme\\) at \\S+Z\n$`))
    expect(await sessionStatus(acmeReader)).toBe(401)
    expect(await runHere(["keys", "revoke", "pk_nobody"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `Database: SQLite ${filename}\npayments-engine: api_key: API key not found\n`,
    })
    expect((await runHere(["keys", "rotate", acmeReader.api_key])).stderr).toBe(
      `Database: SQLite ${filename}\npayments-engine: api_key: API key is revoked\n`,
    )

    const rotated = await run(["keys", "rotate", acmeWriter.api_key])
    expect(rotated).toMatchObject({ code: 0, stderr: `Database: SQLite ${filename}\n` })
    const newSecret = printed(rotated.stdout, "API secret") ?? ""
    expect(newSecret).toMatch(/^sk_/)
    expect(newSecret).not.toBe(acmeWriter.api_secret)
    const until = printed(rotated.stdout, "Previous secret valid until") ?? ""
    // The default grace period: 24 hours from the rotation.
    const hoursLeft = (Date.parse(until) - Date.now()) / 3_600_000
    expect(hoursLeft).toBeGreaterThan(23)
    expect(hoursLeft).toBeLessThanOrEqual(24)
    expect(await sessionStatus(acmeWriter)).toBe(201)
    expect(await sessionStatus({ ...acmeWriter, api_secret: newSecret })).toBe(201)

    const noGrace = await run(["keys", "rotate", globex.api_key, "--grace", "0"])
    expect(noGrace.code).toBe(0)
    expect(await sessionStatus(globex)).toBe(401)
    expect(await sessionStatus({ ...globex, api_secret: printed(noGrace.stdout, "API secret") ?? "" })).toBe(201)

    const after = await run(["keys", "list"])
    expect(after.stdout).toMatch(new RegExp(`^${acmeReader.api_key} +acme +read .* revoked \\S+Z$`, "m"))
    expect(after.stdout).toMatch(
      new RegExp(`^${acmeWriter.api_key} +acme +write .* rotated \\S+Z, previous secret until ${until}$`, "m"),
    )
    for (const secret of [acmeWriter.api_secret, acmeReader.api_secret, globex.api_secret, newSecret]) {
      expect(after.stdout).not.toContain(secret)
    }
    expect(after.stdout).not.toContain("scrypt")
  }, 120_000)
})

describe("payments-engine keys on a database that does not exist", () => {
  it("refuses to list, revoke or rotate, saying where it looked, and creates nothing", async () => {
    const filename = join(folder, "elsewhere", "data", "payments.sqlite")
    const refusal = `payments-engine: DATABASE_URL: no database at ${filename}; \`payments-engine serve\` or \`payments-engine keys create\` creates one\n`
    expect(await cli(["keys", "list"], `sqlite:${filename}`)).toEqual({ code: 1, stdout: "", stderr: refusal })
    // The same code path in this process: the wording is what matters, not the process.
    for (const args of [
      ["keys", "revoke", "pk_nope"],
      ["keys", "rotate", "pk_nope"],
    ]) {
      expect({ args, ...(await runInProcess(args, `sqlite:${filename}`)) }).toEqual({
        args,
        code: 1,
        stdout: "",
        stderr: refusal,
      })
    }
    expect(existsSync(join(folder, "elsewhere"))).toBe(false)
  }, 60_000)

  it.runIf(process.env.DATABASE_URL !== undefined)(
    "refuses to list, revoke or rotate on a Postgres schema without the storage's tables, and creates nothing",
    async () => {
      const schema = `cli_absent_${process.pid}_${Date.now()}`
      const url = new URL(process.env.DATABASE_URL as string)
      url.searchParams.set("schema", schema)
      const refusal = `payments-engine: DATABASE_URL: no database at ${databaseLabel(parseStorageUrl(url.toString()))}; \`payments-engine serve\` or \`payments-engine keys create\` creates one\n`
      for (const args of [
        ["keys", "list"],
        ["keys", "revoke", "pk_nope"],
        ["keys", "rotate", "pk_nope"],
      ]) {
        expect({ args, ...(await runInProcess(args, url.toString())) }).toEqual({
          args,
          code: 1,
          stdout: "",
          stderr: refusal,
        })
      }
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
      await admin.connect()
      try {
        const { rows } = await admin.query("select 1 from information_schema.schemata where schema_name = $1", [schema])
        expect(rows).toEqual([])
      } finally {
        await admin.end()
      }
    },
    60_000,
  )

  it("creates it for keys create, and says so", async () => {
    const filename = join(folder, "created", "payments.sqlite")
    const created = await cli(["keys", "create", "--workspace", "acme"], `sqlite:${filename}`)
    expect(created).toMatchObject({ code: 0, stderr: `Database: SQLite ${filename}\n` })
    expect(existsSync(filename)).toBe(true)
  }, 60_000)

  it("names a Postgres database by its user, host, port, database and schema, never its password", () => {
    expect(databaseLabel(parseStorageUrl("postgres://app:s3cret@db.internal:6543/pay?schema=tenant_1"))).toBe(
      "Postgres app@db.internal:6543/pay (schema tenant_1)",
    )
    expect(databaseLabel(parseStorageUrl("postgres://127.0.0.1/test"))).toBe("Postgres 127.0.0.1:5432/test")
  })
})
