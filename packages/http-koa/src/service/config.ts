import { dirname, join } from "node:path"
import { parseStorageUrl, type StorageLocation } from "@payments-engine/adapters"
import { type BatchExecution, defaultBatchExecution } from "@payments-engine/core"
import { defaultJobLaneConcurrency } from "@payments-engine/core/effect"
import {
  defaultKeyCacheSeconds,
  defaultTokenLifetimeSeconds,
  longestKeyCacheSeconds,
} from "../binding/bearer-tokens.ts"
import { type LogFormat, type LogLevel, logFormats, logLevels } from "../binding/logger.ts"
import { defaultUploadLimits, type UploadLimits } from "../binding/middleware/upload-slots.ts"
import {
  maxRateLimit,
  type RateLimitName,
  type RateLimitSettings,
  rateLimitSettings,
  rateLimitVariables,
} from "../binding/rate-limits/rate-limit-settings.ts"

/** The service's settings, read from the environment by {@link loadConfig}. */
export interface ServiceConfig {
  /** `PORT`: 3000 by default; 0 picks a free port. */
  readonly port: number
  /** `DATABASE_URL`: `sqlite:./data/payments.sqlite` by default. */
  readonly databaseUrl: string
  /** The database `DATABASE_URL` names. */
  readonly database: StorageLocation
  /** `PAYMENTS_SANDBOX`: true by default with SQLite, false with Postgres. */
  readonly sandbox: boolean
  /**
   * `PAYMENTS_JWT_SECRET`; when undefined (sandbox only) one is generated and kept in
   * {@link ServiceConfig.serverSecretFile}, never in the database.
   */
  readonly jwtSecret: string | undefined
  /**
   * `PAYMENTS_SECRET_FILE`: where sandbox mode keeps the secret it generates when
   * `PAYMENTS_JWT_SECRET` is unset. By default `server-secret` beside the SQLite file
   * (`./data/server-secret` with the default database), and `./data/server-secret` with Postgres;
   * undefined with an in-memory SQLite database, whose secret lives and dies with the process as
   * the database does.
   */
  readonly serverSecretFile: string | undefined
  /** `PAYMENTS_HOSTED_URL`: `http://localhost:<PORT>` by default, without a trailing slash. */
  readonly hostedUrl: string
  /** `LOG_LEVEL`: `info` by default. */
  readonly logLevel: LogLevel
  /** `LOG_FORMAT`: `json` lines by default; `pretty` for people reading a terminal (pino-pretty). */
  readonly logFormat: LogFormat
  /** `PAYMENTS_API_KEY` and `PAYMENTS_API_SECRET`: a key to create at start, in workspace `sandbox`. */
  readonly bootstrapKey: { readonly key: string; readonly secret: string } | undefined
  /** `PAYMENTS_TOKEN_LIFETIME_SECONDS`: bearer token lifetime, 3600 by default. */
  readonly tokenLifetimeSeconds: number
  /** `PAYMENTS_KEY_CACHE_SECONDS`: how long a process trusts an API key's state, 30 by default, 0 to 60. */
  readonly keyCacheSeconds: number
  /**
   * `PAYMENTS_BATCH_CONCURRENCY` (payments of one batch in flight, 5 by default, 1 to 100) and
   * `PAYMENTS_BATCH_RATE` (payments of one batch started a second across every process, 20 by
   * default, 1 to 10000).
   */
  readonly batchExecution: BatchExecution
  /**
   * `PAYMENTS_PAYMENT_CONCURRENCY` (single payments executed at once per process, 5 by default)
   * and `PAYMENTS_WEBHOOK_CONCURRENCY` (webhook delivery jobs at once per process, one endpoint
   * each, 10 by default), 1 to 100: each lane of background work has its own slots.
   */
  readonly jobConcurrency: { readonly payments: number; readonly webhooks: number }
  /**
   * `PAYMENTS_WEBHOOK_WORKSPACE_LANES` (webhook delivery jobs one workspace may have sending at
   * once, across every process, 1 to 100): half of the webhook slots (at least 1) by default.
   */
  readonly webhookWorkspaceLanes: number
  /** `PAYMENTS_RATE_LIMIT_*`: requests per minute of each rate limit (see `rateLimitVariables`). */
  readonly rateLimits: RateLimitSettings
  /** `PAYMENTS_TRUSTED_PROXY_HOPS`: reverse proxies in front that append to `X-Forwarded-For`; 0 by default. */
  readonly trustedProxyHops: number
  /**
   * `PAYMENTS_ATTACHMENTS_DIR`: where onboarding attachments' bytes are kept, one file each. By
   * default `attachments` beside the SQLite file (`./data/attachments` with the default database),
   * and `./data/attachments` with Postgres or an in-memory SQLite database.
   */
  readonly attachmentsDirectory: string
  /**
   * `PAYMENTS_UPLOADS_PER_KEY` (4 by default, 1 to 1000) and `PAYMENTS_UPLOADS_PER_PROCESS` (32
   * by default, 1 to 10000): uploads in progress at once, past which an upload is answered 429
   * (the key's) or 503 (the process's) with `Retry-After`.
   */
  readonly uploads: UploadLimits
  /** The HTTP server's timeouts and connection cap (see {@link HttpServerLimits}). */
  readonly httpServer: HttpServerLimits
  /**
   * `PAYMENTS_METRICS_PORT`: the port of `GET /metrics` (Prometheus text format), a server of
   * its own beside the API's, so the metrics are public only if that port is published; 0 picks
   * a free port. Unset (the default): no metrics are kept or served.
   */
  readonly metricsPort: number | undefined
  /**
   * Traces (OpenTelemetry), from the SDK's standard variables: `OTEL_TRACES_EXPORTER` (`otlp`,
   * `console` or `none`; `otlp` when unset but `OTEL_EXPORTER_OTLP_ENDPOINT` or
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is), `OTEL_SERVICE_NAME` (`payments-engine` by default),
   * `OTEL_SDK_DISABLED=true` to turn them off. Undefined (the default): no SDK is loaded and no
   * span is made. The exporter reads the rest of its `OTEL_EXPORTER_OTLP_*` variables itself.
   */
  readonly traces: TracesConfig | undefined
}

/** Where the service's spans go, when traces are on (see {@link ServiceConfig.traces}). */
export interface TracesConfig {
  /** `otlp`: OTLP over HTTP with JSON, to the `OTEL_EXPORTER_OTLP_*` endpoint; `console`: standard output. */
  readonly exporter: "otlp" | "console"
  /** The `service.name` of the spans' resource. */
  readonly serviceName: string
}

/**
 * What the service's Node HTTP server allows a client, all shorter than Node's own defaults, so
 * that a client dripping its headers or body, or holding connections open, costs little.
 */
export interface HttpServerLimits {
  /** `PAYMENTS_HEADERS_TIMEOUT_SECONDS` (20 by default): a request's headers must all arrive within it, else 408 and the connection closes. */
  readonly headersTimeoutMs: number
  /**
   * `PAYMENTS_REQUEST_TIMEOUT_SECONDS` (120 by default, at least the headers timeout): a
   * request, headers and body, must all arrive within it, else 408 and the connection closes
   * (a 10 MiB upload at 1 Mbit/s takes about 84 s).
   */
  readonly requestTimeoutMs: number
  /** `PAYMENTS_KEEP_ALIVE_TIMEOUT_SECONDS` (5 by default): a kept-alive connection with no request is closed after it. */
  readonly keepAliveTimeoutMs: number
  /** `PAYMENTS_IDLE_TIMEOUT_SECONDS` (60 by default): a connection on which nothing moves either way for this long is closed. */
  readonly idleTimeoutMs: number
  /** `PAYMENTS_MAX_CONNECTIONS` (1000 by default): connections past it are closed as soon as they are accepted. */
  readonly maxConnections: number
}

/** The server limits when no variable is set. */
export const defaultHttpServerLimits: HttpServerLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 1000,
}

/** The environment, as `process.env` has it. */
export type Environment = Readonly<Record<string, string | undefined>>

/** What `DATABASE_URL` is when unset. */
export const defaultDatabaseUrl = "sqlite:./data/payments.sqlite"

/**
 * Where attachments are kept when `PAYMENTS_ATTACHMENTS_DIR` is unset: beside the SQLite file,
 * else `./data/attachments`.
 *
 * @example
 * defaultAttachmentsDirectory({ dialect: "sqlite", filename: "./data/payments.sqlite" }) // "data/attachments"
 */
export const defaultAttachmentsDirectory = (database: StorageLocation): string =>
  database.dialect === "sqlite" && database.filename !== ":memory:" && database.filename !== ""
    ? join(dirname(database.filename), "attachments")
    : join("data", "attachments")

/**
 * Where the generated server secret is kept when `PAYMENTS_SECRET_FILE` is unset: `server-secret`
 * beside the SQLite file, else `./data/server-secret`; undefined for an in-memory database.
 *
 * @example
 * defaultServerSecretFile({ dialect: "sqlite", filename: "./data/payments.sqlite" }) // "data/server-secret"
 */
export const defaultServerSecretFile = (database: StorageLocation): string | undefined => {
  if (database.dialect === "postgres") return join("data", "server-secret")
  if (database.filename === ":memory:" || database.filename === "") return undefined
  return join(dirname(database.filename), "server-secret")
}

/** Shortest `PAYMENTS_JWT_SECRET` accepted. */
export const minimumJwtSecretLength = 32

/**
 * The configuration is unusable. `problems` names every wrong variable at once; the message lists
 * them, one a line, without echoing secrets.
 *
 * @example
 * try { loadConfig(process.env) } catch (error) { if (error instanceof ConfigError) console.error(error.message) }
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError"
  constructor(readonly problems: ReadonlyArray<string>) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`)
  }
}

/** A variable's value; an empty string counts as unset. */
const read = (env: Environment, name: string): string | undefined => {
  const value = env[name]
  return value === undefined || value === "" ? undefined : value
}

const quote = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value)

/**
 * The `DATABASE_URL` of an environment, with its default: what the operator command also uses.
 *
 * @example
 * databaseUrlOf({}) // "sqlite:./data/payments.sqlite"
 */
export const databaseUrlOf = (env: Environment): string => read(env, "DATABASE_URL") ?? defaultDatabaseUrl

/**
 * The `PAYMENTS_JWT_SECRET` of an environment, unchecked (an empty one counts as unset): what the
 * operator command also uses.
 */
export const jwtSecretOf = (env: Environment): string | undefined => read(env, "PAYMENTS_JWT_SECRET")

/**
 * The server secret's file of an environment (`PAYMENTS_SECRET_FILE`, else
 * {@link defaultServerSecretFile}): what the operator command also uses.
 */
export const serverSecretFileOf = (env: Environment, database: StorageLocation): string | undefined =>
  read(env, "PAYMENTS_SECRET_FILE") ?? defaultServerSecretFile(database)

const parseBoolean = (value: string): boolean | undefined => {
  const lower = value.trim().toLowerCase()
  if (["true", "1", "yes", "on"].includes(lower)) return true
  if (["false", "0", "no", "off"].includes(lower)) return false
  return undefined
}

const parseInteger = (value: string, min: number, max: number): number | undefined => {
  if (!/^\d{1,10}$/.test(value.trim())) return undefined
  const n = Number(value.trim())
  return n >= min && n <= max ? n : undefined
}

/** The OTLP endpoint variables, which alone turn OTLP export on. */
const otlpEndpointVariables = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] as const
/** The OTLP protocol variables: the service's exporter speaks `http/json` only. */
const otlpProtocolVariables = ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] as const

/** Traces as the OpenTelemetry variables of `env` ask (see {@link ServiceConfig.traces}), their problems added to `problems`. */
const tracesOf = (env: Environment, problems: Array<string>): TracesConfig | undefined => {
  for (const name of otlpEndpointVariables) {
    const text = read(env, name)
    if (text !== undefined && !/^https?:\/\/[^\s/?#]+/i.test(text)) {
      problems.push(`${name} must be an http:// or https:// URL, got ${quote(text)}`)
    }
  }
  for (const name of otlpProtocolVariables) {
    const text = read(env, name)
    if (text !== undefined && text.trim() !== "http/json") {
      problems.push(
        `${name} must be http/json (OTLP over HTTP with JSON, the one protocol the service sends), got ${quote(text)}`,
      )
    }
  }
  const exporterText = read(env, "OTEL_TRACES_EXPORTER")
  const exporter = exporterText?.trim().toLowerCase()
  if (exporter !== undefined && exporter !== "otlp" && exporter !== "console" && exporter !== "none") {
    problems.push(`OTEL_TRACES_EXPORTER must be otlp, console or none, got ${quote(exporterText ?? "")}`)
    return undefined
  }
  if (read(env, "OTEL_SDK_DISABLED")?.trim().toLowerCase() === "true" || exporter === "none") return undefined
  const chosen = exporter ?? (otlpEndpointVariables.some((name) => read(env, name) !== undefined) ? "otlp" : undefined)
  if (chosen === undefined) return undefined
  return { exporter: chosen, serviceName: read(env, "OTEL_SERVICE_NAME")?.trim() || "payments-engine" }
}

/**
 * Reads the service's configuration (DECISIONS, "Running the service") from an environment, and
 * throws a {@link ConfigError} naming every wrong variable at once.
 *
 * @example
 * const config = loadConfig(process.env)
 * config.port // 3000 unless PORT is set
 */
export const loadConfig = (env: Environment): ServiceConfig => {
  const problems: Array<string> = []

  const portText = read(env, "PORT")
  let port = 3000
  if (portText !== undefined) {
    const n = parseInteger(portText, 0, 65535)
    if (n === undefined) problems.push(`PORT must be an integer from 0 to 65535, got ${quote(portText)}`)
    else port = n
  }

  const metricsPortText = read(env, "PAYMENTS_METRICS_PORT")
  let metricsPort: number | undefined
  if (metricsPortText !== undefined) {
    metricsPort = parseInteger(metricsPortText, 0, 65535)
    if (metricsPort === undefined) {
      problems.push(`PAYMENTS_METRICS_PORT must be an integer from 0 to 65535, got ${quote(metricsPortText)}`)
    } else if (metricsPort !== 0 && metricsPort === port) {
      problems.push("PAYMENTS_METRICS_PORT must differ from PORT: the metrics are served apart from the API")
    }
  }

  const traces = tracesOf(env, problems)

  const databaseUrl = databaseUrlOf(env)
  let database: StorageLocation = { dialect: "sqlite", filename: "./data/payments.sqlite" }
  try {
    database = parseStorageUrl(databaseUrl)
  } catch (error) {
    problems.push(error instanceof Error ? error.message : "DATABASE_URL is not usable")
  }

  const sandboxText = read(env, "PAYMENTS_SANDBOX")
  let sandbox = database.dialect === "sqlite"
  if (sandboxText !== undefined) {
    const value = parseBoolean(sandboxText)
    if (value === undefined) problems.push(`PAYMENTS_SANDBOX must be true or false, got ${quote(sandboxText)}`)
    else sandbox = value
  }

  const jwtSecret = jwtSecretOf(env)
  if (jwtSecret !== undefined && jwtSecret.length < minimumJwtSecretLength) {
    problems.push(`PAYMENTS_JWT_SECRET must be at least ${minimumJwtSecretLength} characters`)
  }
  if (jwtSecret === undefined && !sandbox) {
    problems.push(
      `PAYMENTS_JWT_SECRET is required when sandbox mode is off (PAYMENTS_SANDBOX=false, the default with Postgres); set it to at least ${minimumJwtSecretLength} random characters`,
    )
  }

  const hostedText = read(env, "PAYMENTS_HOSTED_URL")
  let hostedUrl = `http://localhost:${port}`
  if (hostedText !== undefined) {
    const parsed = URL.canParse(hostedText) ? new URL(hostedText) : undefined
    if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      problems.push(`PAYMENTS_HOSTED_URL must be an http:// or https:// URL, got ${quote(hostedText)}`)
    } else {
      hostedUrl = hostedText.replace(/\/+$/, "")
    }
  }

  const levelText = read(env, "LOG_LEVEL")
  let logLevel: LogLevel = "info"
  if (levelText !== undefined) {
    const lower = levelText.trim().toLowerCase()
    const level = logLevels.find((candidate) => candidate === lower)
    if (level === undefined) problems.push(`LOG_LEVEL must be one of ${logLevels.join(", ")}, got ${quote(levelText)}`)
    else logLevel = level
  }

  const formatText = read(env, "LOG_FORMAT")
  let logFormat: LogFormat = "json"
  if (formatText !== undefined) {
    const lower = formatText.trim().toLowerCase()
    const format = logFormats.find((candidate) => candidate === lower)
    if (format === undefined)
      problems.push(`LOG_FORMAT must be one of ${logFormats.join(", ")}, got ${quote(formatText)}`)
    else logFormat = format
  }

  const key = read(env, "PAYMENTS_API_KEY")
  const secret = read(env, "PAYMENTS_API_SECRET")
  let bootstrapKey: ServiceConfig["bootstrapKey"]
  if ((key === undefined) !== (secret === undefined)) {
    problems.push("PAYMENTS_API_KEY and PAYMENTS_API_SECRET must be set together")
  } else if (key !== undefined && secret !== undefined) {
    if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
      problems.push("PAYMENTS_API_KEY must be 1 to 200 visible ASCII characters without spaces")
    }
    if (secret.length > 1000 || secret.trim() !== secret) {
      problems.push("PAYMENTS_API_SECRET must be at most 1000 characters, without leading or trailing spaces")
    }
    bootstrapKey = { key, secret }
  }

  const lifetimeText = read(env, "PAYMENTS_TOKEN_LIFETIME_SECONDS")
  let tokenLifetimeSeconds = defaultTokenLifetimeSeconds
  if (lifetimeText !== undefined) {
    const n = parseInteger(lifetimeText, 1, 86_400)
    if (n === undefined) {
      problems.push(`PAYMENTS_TOKEN_LIFETIME_SECONDS must be an integer from 1 to 86400, got ${quote(lifetimeText)}`)
    } else tokenLifetimeSeconds = n
  }

  const cacheText = read(env, "PAYMENTS_KEY_CACHE_SECONDS")
  let keyCacheSeconds = defaultKeyCacheSeconds
  if (cacheText !== undefined) {
    const n = parseInteger(cacheText, 0, longestKeyCacheSeconds)
    if (n === undefined) {
      problems.push(
        `PAYMENTS_KEY_CACHE_SECONDS must be an integer from 0 to ${longestKeyCacheSeconds}, got ${quote(cacheText)}`,
      )
    } else keyCacheSeconds = n
  }

  const limits: Partial<Record<RateLimitName, number>> = {}
  for (const [name, variable] of Object.entries(rateLimitVariables) as Array<[RateLimitName, string]>) {
    const text = read(env, variable)
    if (text === undefined) continue
    const n = parseInteger(text, 1, maxRateLimit)
    if (n === undefined) problems.push(`${variable} must be an integer from 1 to ${maxRateLimit}, got ${quote(text)}`)
    else limits[name] = n
  }

  const batchExecution = { ...defaultBatchExecution }
  const concurrencyText = read(env, "PAYMENTS_BATCH_CONCURRENCY")
  if (concurrencyText !== undefined) {
    const n = parseInteger(concurrencyText, 1, 100)
    if (n === undefined)
      problems.push(`PAYMENTS_BATCH_CONCURRENCY must be an integer from 1 to 100, got ${quote(concurrencyText)}`)
    else batchExecution.concurrency = n
  }
  const rateText = read(env, "PAYMENTS_BATCH_RATE")
  if (rateText !== undefined) {
    const n = parseInteger(rateText, 1, 10_000)
    if (n === undefined) problems.push(`PAYMENTS_BATCH_RATE must be an integer from 1 to 10000, got ${quote(rateText)}`)
    else batchExecution.perSecond = n
  }

  const jobConcurrency = { payments: defaultJobLaneConcurrency.payments, webhooks: defaultJobLaneConcurrency.webhooks }
  for (const [lane, variable] of [
    ["payments", "PAYMENTS_PAYMENT_CONCURRENCY"],
    ["webhooks", "PAYMENTS_WEBHOOK_CONCURRENCY"],
  ] as const) {
    const text = read(env, variable)
    if (text === undefined) continue
    const n = parseInteger(text, 1, 100)
    if (n === undefined) problems.push(`${variable} must be an integer from 1 to 100, got ${quote(text)}`)
    else jobConcurrency[lane] = n
  }

  let webhookWorkspaceLanes = Math.max(1, Math.floor(jobConcurrency.webhooks / 2))
  const sharesText = read(env, "PAYMENTS_WEBHOOK_WORKSPACE_LANES")
  if (sharesText !== undefined) {
    const n = parseInteger(sharesText, 1, 100)
    if (n === undefined) {
      problems.push(`PAYMENTS_WEBHOOK_WORKSPACE_LANES must be an integer from 1 to 100, got ${quote(sharesText)}`)
    } else webhookWorkspaceLanes = n
  }

  const hopsText = read(env, "PAYMENTS_TRUSTED_PROXY_HOPS")
  let trustedProxyHops = 0
  if (hopsText !== undefined) {
    const n = parseInteger(hopsText, 0, 10)
    if (n === undefined)
      problems.push(`PAYMENTS_TRUSTED_PROXY_HOPS must be an integer from 0 to 10, got ${quote(hopsText)}`)
    else trustedProxyHops = n
  }

  const attachmentsDirectory = read(env, "PAYMENTS_ATTACHMENTS_DIR") ?? defaultAttachmentsDirectory(database)
  const serverSecretFile = serverSecretFileOf(env, database)

  /** An integer variable within `min` and `max`, `fallback` when unset. */
  const integer = (name: string, min: number, max: number, fallback: number): number => {
    const text = read(env, name)
    if (text === undefined) return fallback
    const n = parseInteger(text, min, max)
    if (n === undefined) problems.push(`${name} must be an integer from ${min} to ${max}, got ${quote(text)}`)
    return n ?? fallback
  }
  const uploads: UploadLimits = {
    perKey: integer("PAYMENTS_UPLOADS_PER_KEY", 1, 1000, defaultUploadLimits.perKey),
    perProcess: integer("PAYMENTS_UPLOADS_PER_PROCESS", 1, 10_000, defaultUploadLimits.perProcess),
  }
  const seconds = (name: string, fallbackMs: number) => integer(name, 1, 3600, fallbackMs / 1000) * 1000
  const httpServer: HttpServerLimits = {
    headersTimeoutMs: seconds("PAYMENTS_HEADERS_TIMEOUT_SECONDS", defaultHttpServerLimits.headersTimeoutMs),
    requestTimeoutMs: seconds("PAYMENTS_REQUEST_TIMEOUT_SECONDS", defaultHttpServerLimits.requestTimeoutMs),
    keepAliveTimeoutMs: seconds("PAYMENTS_KEEP_ALIVE_TIMEOUT_SECONDS", defaultHttpServerLimits.keepAliveTimeoutMs),
    idleTimeoutMs: seconds("PAYMENTS_IDLE_TIMEOUT_SECONDS", defaultHttpServerLimits.idleTimeoutMs),
    maxConnections: integer("PAYMENTS_MAX_CONNECTIONS", 1, 1_000_000, defaultHttpServerLimits.maxConnections),
  }
  // Node refuses a headers timeout longer than the request's.
  if (httpServer.headersTimeoutMs > httpServer.requestTimeoutMs) {
    problems.push("PAYMENTS_HEADERS_TIMEOUT_SECONDS must not be longer than PAYMENTS_REQUEST_TIMEOUT_SECONDS")
  }

  if (problems.length > 0) throw new ConfigError(problems)
  return {
    port,
    databaseUrl,
    database,
    sandbox,
    jwtSecret,
    serverSecretFile,
    hostedUrl,
    logLevel,
    logFormat,
    bootstrapKey,
    tokenLifetimeSeconds,
    keyCacheSeconds,
    batchExecution,
    jobConcurrency,
    webhookWorkspaceLanes,
    rateLimits: rateLimitSettings(limits),
    trustedProxyHops,
    attachmentsDirectory,
    uploads,
    httpServer,
    metricsPort,
    traces,
  }
}
