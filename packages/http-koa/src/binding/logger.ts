import { type DestinationStream, type LogFn, type Logger, pino } from "pino"
import { prettyFactory } from "pino-pretty"
import { withErrorsAllowListed } from "./error-log-fields.ts"

/** The levels `LOG_LEVEL` accepts, most severe first. */
export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const

/** One of {@link logLevels}. */
export type LogLevel = (typeof logLevels)[number]

/** The formats `LOG_FORMAT` accepts: JSON lines, or pino-pretty's lines for a terminal. */
export const logFormats = ["json", "pretty"] as const

/** One of {@link logFormats}. */
export type LogFormat = (typeof logFormats)[number]

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** `info` by default. */
  readonly level?: LogLevel
  /** Where JSON lines go; {@link standardOutput} by default. */
  readonly destination?: DestinationStream
}

const isBrokenPipe = (error: unknown) => (error as { code?: unknown } | null)?.code === "EPIPE"

/**
 * Standard output as a log destination that never blocks on a reader that has gone. Lines are
 * written synchronously, as Node writes to pipes and files anyway, so none waits in a buffer at
 * exit: pino's asynchronous destination flushes its buffer at exit by retrying the write every
 * 100 ms for as long as it fails, and with the pipe's reader gone (EPIPE) that is forever. Once
 * the reader has gone, lines are dropped. A write that fails otherwise loses its line only.
 *
 * `pretty` shows each line as pino-pretty does (coloured when standard output is a terminal).
 *
 * @example
 * const logger = createLogger({ destination: standardOutput() })
 */
export const standardOutput = (format: LogFormat = "json"): DestinationStream => {
  const stream = pino.destination({ dest: 1, sync: true })
  let readerGone = false
  stream.on("error", (error: unknown) => {
    if (isBrokenPipe(error)) readerGone = true
  })
  // pino-pretty's formatter, not its stream: the line is written the same way, synchronously.
  const shown = format === "pretty" ? prettyFactory({ colorize: process.stdout.isTTY === true }) : undefined
  return {
    write: (line: string) => {
      if (!readerGone) stream.write(shown === undefined ? line : shown(line))
    },
  }
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
  const base = { service: "payments-engine" }
  const settings = {
    level: options.level ?? "info",
    base,
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
  const destination = options.destination ?? standardOutput()
  const logger = pino(settings, destination)
  const head = JSON.stringify(base).slice(1, -1)
  const isoTime = lastIsoTime()
  plainLineWriters.set(logger, (level, fields, message) => {
    if (!logger.isLevelEnabled(level)) return
    let line = `{"level":${logger.levels.values[level]},"time":"${isoTime()}",${head}`
    for (const name in fields) {
      const value = fields[name]
      if (value !== undefined)
        line += `,${JSON.stringify(name)}:${typeof value === "number" ? jsonNumber(value) : JSON.stringify(value)}`
    }
    destination.write(`${line},"msg":${JSON.stringify(message)}}\n`)
  })
  return logger
}

/** Fields that need neither redaction nor error reduction: strings and numbers picked one by one. */
export type PlainFields = Readonly<Record<string, string | number | undefined>>

/** Writes one line of {@link PlainFields} at `level` with the message. */
export type PlainLineWriter = (level: "info" | "error", fields: PlainFields, message: string) => void

const plainLineWriters = new WeakMap<Logger, PlainLineWriter>()

/**
 * The time now as pino's `isoTime` writes it, made once a millisecond: a `Date` and its
 * `toISOString` cost more than the rest of an access-log line, and a busy service writes several
 * lines a millisecond.
 */
const lastIsoTime = (): (() => string) => {
  let ms = Number.NaN
  let text = ""
  return () => {
    const now = Date.now()
    if (now !== ms) {
      ms = now
      text = new Date(now).toISOString()
    }
    return text
  }
}

/** A number as JSON writes it: `null` when not finite, as `JSON.stringify` does. */
const jsonNumber = (value: number): string => (Number.isFinite(value) ? String(value) : "null")

/**
 * A writer of lines whose every field is allow-listed and scalar (the access log's): for a logger of
 * {@link createLogger}, the line pino would write, built without pino's hook and redaction, which
 * cannot find anything in such fields and were half of the line's cost; for any other logger, its
 * own `info` or `error`.
 *
 * @example
 * plainLines(logger)("info", { request_id: "req_1", status: 200 }, "request")
 */
export const plainLines = (logger: Logger): PlainLineWriter =>
  plainLineWriters.get(logger) ?? ((level, fields, message) => logger[level](fields, message))

export type { Logger }
