import { type DestinationStream, type Logger, pino } from "pino"
import { errorLogFields } from "./error-log-fields.ts"

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
 * binding never logs bodies, headers or secrets in the first place): a redaction list, and an `err`
 * serializer that keeps only the allow-listed fields of {@link errorLogFields} where pino's own
 * would copy every property of the error (Node's parser errors carry the raw request).
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
    serializers: { err: errorLogFields },
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
