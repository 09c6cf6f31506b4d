import type { Logger } from "pino"
import { errorLogFields } from "./error-log-fields.ts"
import type { RunningService } from "./server.ts"

/**
 * DECISIONS "Shutdown" for a process that runs one service: on the first SIGTERM or SIGINT it
 * logs `shutting down`, closes the service (which bounds itself: {@link RunningService.close}),
 * logs `stopped` and exits 0; a failed close exits 1.
 *
 * @example
 * const service = await startService(config, { logger })
 * exitOnSignals(service, logger)
 */
export const exitOnSignals = (service: RunningService, logger: Logger): void => {
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, "shutting down")
    service.close().then(
      () => {
        logger.info("stopped")
        process.exit(0)
      },
      (error: unknown) => {
        logger.error({ err: errorLogFields(error) }, "shutdown failed")
        process.exit(1)
      },
    )
  }
  process.on("SIGTERM", stop)
  process.on("SIGINT", stop)
}
