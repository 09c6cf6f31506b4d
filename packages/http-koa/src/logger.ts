import { type DestinationStream, type LogFn, type Logger, pino } from "pino"
import { withErrorsAllowListed } from "./error-log-fields.ts"

/** The levels `LOG_LEVEL` accepts, most severe first. */
export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const

/** One of {@link logLevels}. */
export type LogLevel = (typeof logLevels)[number]

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** `info` by default. */
  readonly level?: LogLevel
  /** Where JSON lines go; standard output by default. */
  readonly destination?: DestinationStream
}

/**
 * The service's pino logger: JSON lines, ISO timestamps, and two second lines of defence (the
 * binding never logs bodies, headers or secrets in the first place): a redaction list, and a hook
 * that reduces any error handed to it as it is to its allow-listed fields
 * ({@link withErrorsAllowListed}), where pino would copy every property of the error (Node's parser
 * errors carry the raw request) and take its message as the line's.
 *
 * @example
 * const logger = createLogger({ level: "debug" })
 * logger.info({ url: "http://localhost:3000" }, "listening")
 */
export const createLogger = (options: LoggerOptions = {}): Logger => {
  const settings = {
    level: options.level ?? "info",
    base: { service: "payments-engine" },
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: {
      logMethod(args: Parameters<LogFn>, method: LogFn) {
        const [first, ...rest] = args as [unknown, ...Array<unknown>]
        return method.apply(this, [withErrorsAllowListed(first), ...rest] as Parameters<LogFn>)
      },
    },
    redact: {
      paths: [
        "authorization",
        "headers.authorization",
        "req.headers.authorization",
        "api_secret",
        "*.api_secret",
        "access_token",
        "*.access_token",
        "secret",
        "*.secret",
      ],
      censor: "[redacted]",
    },
  }
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination)
}

export type { Logger }
