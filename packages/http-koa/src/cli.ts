import { parseArgs } from "node:util"
import { openStorageFromUrl } from "@payments-engine/adapters"
import { type Engine, isDomainError } from "@payments-engine/core"
import { jwtSecretFor } from "./bootstrap.ts"
import { databaseUrlOf, type Environment, jwtSecretOf } from "./config.ts"
import { httpStatusOf } from "./http-error.ts"
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
  keys create --workspace <name> [--scope read|write]
      Create an API key in a workspace (created when missing) and print its key and secret.
      The secret is shown this once; only its hash is stored. Scope is write by default.

Options:
  -h, --help    Show this help

Environment:
  DATABASE_URL  sqlite:<path>, sqlite::memory: or postgres://... (default sqlite:./data/payments.sqlite)
`

class UsageError extends Error {}

/** A usage mistake: ours, or one `parseArgs` found (unknown option, missing value). */
const isArgumentError = (error: unknown): error is Error =>
  error instanceof UsageError ||
  (error instanceof Error && String((error as { code?: unknown }).code ?? "").startsWith("ERR_PARSE_ARGS"))

const describe = (error: unknown) =>
  isDomainError(error)
    ? error.errors.map((e) => `${e.field} ${e.message}`).join("; ")
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

  let storage: Awaited<ReturnType<typeof openStorageFromUrl>>
  try {
    storage = await openStorageFromUrl(databaseUrlOf(io.env))
  } catch (error) {
    io.stderr(`Cannot open the database of DATABASE_URL: ${describe(error)}\n`)
    return 1
  }
  // the command queues no request with an Idempotency-Key; the secret is the service's all the same
  const engine: Engine = createServiceEngine({
    storage,
    serverSecret: { read: () => jwtSecretFor({ jwtSecret: jwtSecretOf(io.env) }, engine) },
  })
  try {
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
    return 0
  } catch (error) {
    if (isDomainError(error) && httpStatusOf(error) < 500) {
      io.stderr(`payments-engine: ${describe(error)}\n\n${usage}`)
      return 2
    }
    io.stderr(`Cannot create the key: ${describe(error)}\n`)
    return 1
  } finally {
    await engine.close()
  }
}

/**
 * The `payments-engine` operator command. Returns the exit code: 0 on success, 2 for bad
 * arguments (with the usage on stderr), 1 when the database cannot be reached.
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
    if (command === "keys" && subcommand === "create") return await keysCreate(rest, io)
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
