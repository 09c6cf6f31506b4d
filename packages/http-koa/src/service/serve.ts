import { createLogger, standardOutput } from "../binding/logger.ts"
import { ConfigError, type Environment, loadConfig } from "./config.ts"
import { databaseLabel } from "./database-label.ts"
import { StartupError, startService } from "./server.ts"
import { exitOnSignals } from "./signals.ts"

/**
 * Runs the service of this process, configured by `env` (`npm start`, and `payments-engine
 * serve`): starts it, logs `listening` to standard output, and from then on SIGTERM or SIGINT
 * stops taking requests and jobs, lets those in flight finish (up to 10 s in all), closes the
 * database and exits 0; started through npm, so does the end of the process that started it. Resolves once the service listens, with 0; a bad configuration or a
 * failed start writes a one-paragraph reason to standard error and resolves with 1, for the
 * caller to exit with. Standard output may go away (its reader closed the pipe): lines are then
 * dropped.
 *
 * @example
 * const code = await serveFromEnvironment(process.env)
 * if (code !== 0) process.exit(code)
 */
export const serveFromEnvironment = async (env: Environment): Promise<number> => {
  // The bootstrap key's lines; the logger's destination handles its own broken pipe.
  process.stdout.on("error", (error: { code?: unknown }) => {
    if (error.code !== "EPIPE") throw error
  })
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig(env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`${error.message}\n`)
    return 1
  }
  const logger = createLogger({ level: config.logLevel, destination: standardOutput(config.logFormat) })
  let service: Awaited<ReturnType<typeof startService>>
  try {
    service = await startService(config, { logger })
  } catch (error) {
    if (!(error instanceof StartupError)) throw error
    process.stderr.write(`Cannot start the payments engine: ${error.message}\n`)
    return 1
  }
  // Before `listening`: whoever waits for that line may send SIGTERM at once. Started through
  // npm (npm sets npm_command), the service also goes when npm's shell does: see followLauncher.
  exitOnSignals(service, logger, { followLauncher: env.npm_command !== undefined })
  logger.info(
    {
      url: service.url,
      port: service.port,
      database: config.database.dialect,
      database_location: databaseLabel(config.database),
      sandbox: config.sandbox,
    },
    "listening",
  )
  return 0
}

/** Why the service could not start, for standard error, when it failed with something unforeseen. */
export const describeServeFailure = (error: unknown): string =>
  `Cannot start the payments engine: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
