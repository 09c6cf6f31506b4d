import type { Logger } from "pino"
import { errorLogFields } from "../binding/error-log-fields.ts"
import type { RunningService } from "./server.ts"

/** Options of {@link exitOnSignals}. */
export interface ExitOnSignalsOptions {
  /**
   * Also stop, as on SIGTERM, when the process that started this one has gone (this process was
   * handed to another parent). For a service started through npm (`npx payments-engine serve`):
   * npm passes SIGTERM and SIGINT to the shell it runs the command in, and Debian's shell (dash)
   * then ends without passing them on, leaving the service running with no parent.
   */
  readonly followLauncher?: boolean
}

/** How often a service that follows its launcher looks whether it is still there. */
const launcherCheckMs = 250

/**
 * DECISIONS "Shutdown" for a process that runs one service: on the first SIGTERM or SIGINT it
 * logs `shutting down`, closes the service (which bounds itself: {@link RunningService.close}),
 * logs `stopped` and exits 0; a failed close exits 1.
 *
 * @example
 * const service = await startService(config, { logger })
 * exitOnSignals(service, logger, { followLauncher: process.env.npm_command !== undefined })
 */
export const exitOnSignals = (service: RunningService, logger: Logger, options: ExitOnSignalsOptions = {}): void => {
  let stopping = false
  const stop = (why: { readonly signal: NodeJS.Signals } | { readonly launcher: "gone" }) => {
    if (stopping) return
    stopping = true
    logger.info(why, "shutting down")
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
  process.on("SIGTERM", (signal) => stop({ signal }))
  process.on("SIGINT", (signal) => stop({ signal }))
  if (options.followLauncher === true) {
    const launcher = process.ppid
    const watch = setInterval(() => {
      if (process.ppid === launcher) return
      clearInterval(watch)
      stop({ launcher: "gone" })
    }, launcherCheckMs)
    watch.unref()
  }
}
