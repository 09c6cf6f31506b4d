import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { parseArgs } from "node:util"
import { openStorageFromUrl, parseStorageUrl, type StorageLocation, storageExists } from "@payments-engine/adapters"
import { type Engine, isDomainError } from "@payments-engine/core"
import { httpStatusOf } from "../binding/http-error.ts"
import { databaseUrlOf, type Environment, jwtSecretOf, serverSecretFileOf } from "./config.ts"
import { databaseLabel } from "./database-label.ts"
import { formatKeyListing, parseGrace } from "./key-commands.ts"
import { serveFromEnvironment } from "./serve.ts"
import { serverSecretFor } from "./server-secret.ts"
import { createServiceEngine } from "./service-engine.ts"

/** Where the command writes, and the environment it reads (`DATABASE_URL`). */
export interface CliIo {
  readonly env: Environment
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
}

/** The help text of `payments-engine`. */
export const usage = `Usage: payments-engine <command> [options]

Commands:
  serve
      Run the service: the HTTP API, the hosted pages and the background jobs, configured by
      the environment below (PORT 3000, SQLite in ./data and sandbox providers by default).
      Logs JSON lines to standard output; stops cleanly on SIGTERM or SIGINT.
  keys create --workspace <name> [--scope read|write]
      Create an API key in a workspace (created when missing) and print its key and secret.
      The secret is shown this once; only its hash is stored. Scope is write by default.
  keys list [--workspace <name>]
      List the API keys of one workspace, or of all: key, workspace, scope, creation, and
      whether it is revoked or rotated. Never a secret.
  keys revoke <key>
      Revoke a key for good: it opens no session from now on, and its bearer tokens stop
      working within a minute on every running service.
  keys rotate <key> [--grace <duration>]
      Give a key a new secret, printed once. The old secret keeps working for the grace
      period (24h by default; e.g. 30m, 2h, 7d, 0 for none; at most 30d), then stops.

Options:
  -h, --help    Show this help
  -v, --version Print the version of @payments-engine/http-koa

The keys commands say on standard error which database they opened. Only serve and keys create
create a database that does not exist; keys list, revoke and rotate refuse it (exit 1).

Exit codes: 0 done, 1 failed (database unreachable or missing, no such key, the service cannot
start), 2 bad arguments.

Environment:
  DATABASE_URL  sqlite:<path>, sqlite::memory: or postgres://... (default sqlite:./data/payments.sqlite)
  PORT, LOG_LEVEL, LOG_FORMAT, PAYMENTS_*  the service's settings (serve); see the README
`

/** The version of this package; its package.json is one folder up from the sources and from the build alike. */
const packageVersion = (): string => {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"))
  const version = (manifest as { version?: unknown }).version
  return typeof version === "string" ? version : "unknown"
}

class UsageError extends Error {}

/** A usage mistake: ours, or one `parseArgs` found (unknown option, missing value). */
const isArgumentError = (error: unknown): error is Error =>
  error instanceof UsageError ||
  (error instanceof Error && String((error as { code?: unknown }).code ?? "").startsWith("ERR_PARSE_ARGS"))

const describe = (error: unknown) =>
  isDomainError(error)
    ? error.errors.map((e) => `${e.field}: ${e.message}`).join("; ")
    : error instanceof Error
      ? error.message
      : String(error)

const keysCreate = async (args: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      workspace: { type: "string", short: "w" },
      scope: { type: "string", short: "s" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  })
  if (values.help === true) {
    io.stdout(usage)
    return 0
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`)
  const workspace = values.workspace
  if (workspace === undefined || workspace.trim() === "") throw new UsageError("--workspace <name> is required")
  const scope = values.scope ?? "write"
  if (scope !== "read" && scope !== "write") throw new UsageError(`--scope must be read or write, got ${scope}`)

  return withEngine(io, "create the key", "may create", async (engine) => {
    const issued = await engine.access.createApiKey({ workspace, scope })
    io.stdout(
      [
        `Workspace: ${issued.workspace}`,
        `Scope: ${issued.scope}`,
        `API key: ${issued.api_key}`,
        `API secret: ${issued.api_secret}`,
        "",
      ].join("\n"),
    )
  })
}

const helpOption = { help: { type: "boolean", short: "h" } } as const

/** The one `<key>` argument of revoke and rotate. */
const keyArgument = (positionals: ReadonlyArray<string>): string => {
  const [key, extra] = positionals
  if (key === undefined || key.trim() === "") throw new UsageError("<key> is required")
  if (extra !== undefined) throw new UsageError(`Unexpected argument: ${extra}`)
  return key
}

const keysList = async (args: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { ...helpOption, workspace: { type: "string", short: "w" } },
    allowPositionals: true,
  })
  if (values.help === true) return help(io)
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`)
  const workspace = values.workspace
  if (workspace !== undefined && workspace.trim() === "") throw new UsageError("--workspace needs a name")
  return withEngine(io, "list the keys", "must exist", async (engine) => {
    const keys = await engine.access.listApiKeys(workspace)
    io.stdout(formatKeyListing(keys))
  })
}

const keysRevoke = async (args: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  const { values, positionals } = parseArgs({ args: [...args], options: helpOption, allowPositionals: true })
  if (values.help === true) return help(io)
  const key = keyArgument(positionals)
  return withEngine(io, "revoke the key", "must exist", async (engine) => {
    const revoked = await engine.access.revokeApiKey(key)
    io.stdout(`Revoked: ${revoked.api_key} (workspace ${revoked.workspace}) at ${revoked.revoked_at}\n`)
  })
}

const keysRotate = async (args: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { ...helpOption, grace: { type: "string", short: "g" } },
    allowPositionals: true,
  })
  if (values.help === true) return help(io)
  const key = keyArgument(positionals)
  const grace = values.grace === undefined ? undefined : parseGrace(values.grace)
  if (grace instanceof Error) throw new UsageError(grace.message)
  return withEngine(io, "rotate the key", "must exist", async (engine) => {
    const rotated = await engine.access.rotateApiKey(key, ...(grace === undefined ? [] : [grace]))
    io.stdout(
      [
        `Workspace: ${rotated.workspace}`,
        `Scope: ${rotated.scope}`,
        `API key: ${rotated.api_key}`,
        `API secret: ${rotated.api_secret}`,
        `Previous secret valid until: ${rotated.previous_secret_expires_at}`,
        "",
      ].join("\n"),
    )
  })
}

const help = (io: CliIo) => {
  io.stdout(usage)
  return 0
}

/** Whether a command may create the database: `create` may, one that reads or changes a key may not. */
type DatabaseUse = "may create" | "must exist"

/**
 * Opens the database of `DATABASE_URL`, says on standard error which one it opened, runs `work`
 * on an engine over it, and closes it. A command that must find its database refuses a SQLite file
 * that does not exist (exit 1) rather than create an empty one. Input the engine finds invalid (a
 * workspace name too long, a key taken) exits 2 with the usage; any other refusal (no such key or
 * workspace, a revoked key) exits 1 with its message, as does a database that cannot be opened.
 */
const withEngine = async (
  io: CliIo,
  what: string,
  use: DatabaseUse,
  work: (engine: Engine) => Promise<void>,
): Promise<number> => {
  let storage: Awaited<ReturnType<typeof openStorageFromUrl>>
  const databaseUrl = databaseUrlOf(io.env)
  let location: StorageLocation
  try {
    location = parseStorageUrl(databaseUrl)
    if (use === "must exist" && !(await storageExists(databaseUrl))) {
      const where = location.dialect === "sqlite" ? resolve(location.filename) : databaseLabel(location)
      io.stderr(
        `payments-engine: DATABASE_URL: no database at ${where}; \`payments-engine serve\` or \`payments-engine keys create\` creates one\n`,
      )
      return 1
    }
    storage = await openStorageFromUrl(databaseUrl)
  } catch (error) {
    io.stderr(`Cannot open the database of DATABASE_URL: ${describe(error)}\n`)
    return 1
  }
  io.stderr(`Database: ${databaseLabel(location)}\n`)
  // the commands queue no request with an Idempotency-Key; the secret is the service's all the same
  let secret: Promise<string> | undefined
  const secretConfig = {
    jwtSecret: jwtSecretOf(io.env),
    serverSecretFile: serverSecretFileOf(io.env, location),
  }
  const engine: Engine = createServiceEngine({
    storage,
    serverSecret: {
      read: () => {
        secret ??= serverSecretFor(secretConfig, storage)
        return secret
      },
    },
  })
  try {
    await work(engine)
    return 0
  } catch (error) {
    if (isDomainError(error) && (error.kind === "invalid" || error.kind === "missing")) {
      io.stderr(`payments-engine: ${describe(error)}\n\n${usage}`)
      return 2
    }
    if (isDomainError(error) && httpStatusOf(error) < 500) {
      io.stderr(`payments-engine: ${describe(error)}\n`)
      return 1
    }
    io.stderr(`Cannot ${what}: ${describe(error)}\n`)
    return 1
  } finally {
    await engine.close()
  }
}

/**
 * The `payments-engine` operator command. Returns the exit code: 0 on success, 2 for bad
 * arguments (with the usage on stderr), 1 when the database cannot be reached. `serve` resolves
 * with 0 once the service listens, and the process then runs until SIGTERM or SIGINT (see
 * {@link serveFromEnvironment}); it writes to the process's own standard output and error.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), {
 *   env: process.env,
 *   stdout: (text) => process.stdout.write(text),
 *   stderr: (text) => process.stderr.write(text),
 * })
 */
export const runCli = async (args: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  try {
    const [command, subcommand, ...rest] = args
    if (command === undefined || command === "-h" || command === "--help" || command === "help") {
      if (command === undefined) {
        io.stderr(usage)
        return 2
      }
      io.stdout(usage)
      return 0
    }
    if (command === "-v" || command === "--version") {
      io.stdout(`${packageVersion()}\n`)
      return 0
    }
    if (command === "serve") {
      if (subcommand === "-h" || subcommand === "--help") return help(io)
      if (subcommand !== undefined) throw new UsageError(`Unexpected argument: ${subcommand}`)
      return await serveFromEnvironment(io.env)
    }
    if (command === "keys" && subcommand === "create") return await keysCreate(rest, io)
    if (command === "keys" && subcommand === "list") return await keysList(rest, io)
    if (command === "keys" && subcommand === "revoke") return await keysRevoke(rest, io)
    if (command === "keys" && subcommand === "rotate") return await keysRotate(rest, io)
    if (command === "keys" && (subcommand === "--help" || subcommand === "-h")) {
      io.stdout(usage)
      return 0
    }
    throw new UsageError(`Unknown command: ${[command, subcommand].filter(Boolean).join(" ")}`)
  } catch (error) {
    if (!isArgumentError(error)) throw error
    io.stderr(`payments-engine: ${error.message}\n\n${usage}`)
    return 2
  }
}
