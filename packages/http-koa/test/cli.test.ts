import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { openSqliteStorage } from "@payments-engine/adapters"
import { afterAll, describe, expect, it } from "vitest"
import { runCli, usage } from "../src/cli.ts"
import { childEnvironment, runNode } from "./support/child-process.ts"
import { expectError } from "./support/expectations.ts"
import { acme, startTestService } from "./support/test-service.ts"

const bin = fileURLToPath(new URL("../bin/payments-engine.js", import.meta.url))
const folder = mkdtempSync(join(tmpdir(), "payments-engine-cli-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const cli = (args: ReadonlyArray<string>, databaseUrl = `sqlite:${join(folder, "cli.sqlite")}`) =>
  runNode([bin, ...args], childEnvironment({ DATABASE_URL: databaseUrl }))

/** `runCli` in this process, its output captured. */
const runInProcess = async (args: ReadonlyArray<string>) => {
  const output = { stdout: "", stderr: "" }
  const code = await runCli(args, {
    env: { DATABASE_URL: `sqlite:${join(folder, "in-process.sqlite")}` },
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
    expect(result).toMatchObject({ code: 0, stderr: "" })
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
      [["serve"], "Unknown command: serve"],
      [["keys", "create", "--workspace", " ".repeat(3)], "--workspace <name> is required"],
      [["keys", "create", "--workspace", "w".repeat(101)], "workspace must be 1 to 100 characters"],
    ]
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await runInProcess(args)
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: "" })
      expect(stderr).toContain(message)
      expect(stderr).toContain(usage)
    }
    for (const args of [["-h"], ["help"], ["keys", "--help"], ["keys", "create", "-h"]]) {
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
