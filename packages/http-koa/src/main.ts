import { ConfigError, loadConfig } from "./config.ts"
import { createLogger, standardOutput } from "./logger.ts"
import { StartupError, startService } from "./server.ts"
import { exitOnSignals } from "./signals.ts"

/**
 * The service's entry point (`npm start`, i.e. `node --conditions=source --import tsx packages/http-koa/src/main.ts`):
 * reads the configuration from the environment, starts the service, and on SIGTERM or SIGINT
 * stops taking requests and jobs, lets those in flight finish (up to 10 s in all), closes the
 * database and exits 0. A bad configuration or a failed start prints a one-paragraph reason and
 * exits 1. Standard output may go away (its reader closed the pipe): lines are then dropped.
 */
const main = async (): Promise<void> => {
  // The bootstrap key's lines; the logger's destination handles its own broken pipe.
  process.stdout.on("error", (error: { code?: unknown }) => {
    if (error.code !== "EPIPE") throw error
  })
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
  const logger = createLogger({ level: config.logLevel, destination: standardOutput(config.logFormat) })
  let service: Awaited<ReturnType<typeof startService>>
  try {
    service = await startService(config, { logger })
  } catch (error) {
    if (!(error instanceof StartupError)) throw error
    process.stderr.write(`Cannot start the payments engine: ${error.message}\n`)
    process.exit(1)
  }
  // Before `listening`: whoever waits for that line may send SIGTERM at once.
  exitOnSignals(service, logger)
  logger.info(
    { url: service.url, port: service.port, database: config.database.dialect, sandbox: config.sandbox },
    "listening",
  )
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Cannot start the payments engine: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exit(1)
})
