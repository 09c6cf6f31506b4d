import { describe, expect, it } from "vitest"
import { ConfigError, loadConfig } from "../src/service/config.ts"

const secret = "s".repeat(32)

const problemsOf = (env: Record<string, string>): ReadonlyArray<string> => {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe("loadConfig", () => {
  it("has the defaults of DECISIONS", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      databaseUrl: "sqlite:./data/payments.sqlite",
      database: { dialect: "sqlite", filename: "./data/payments.sqlite" },
      sandbox: true,
      jwtSecret: undefined,
      serverSecretFile: "data/server-secret",
      hostedUrl: "http://localhost:3000",
      logLevel: "info",
      logFormat: "json",
      bootstrapKey: undefined,
      tokenLifetimeSeconds: 3600,
      keyCacheSeconds: 30,
      batchExecution: { concurrency: 5, perSecond: 20 },
      jobConcurrency: { payments: 5, webhooks: 10 },
      webhookWorkspaceLanes: 5,
      rateLimits: {
        general: 1000,
        quotes: 300,
        payments: 300,
        multiCurrency: 100,
        failedSessions: 20,
        sessionsPerAddress: 60,
      },
      trustedProxyHops: 0,
      attachmentsDirectory: "data/attachments",
      uploads: { perKey: 4, perProcess: 32 },
      httpServer: {
        headersTimeoutMs: 20_000,
        requestTimeoutMs: 120_000,
        keepAliveTimeoutMs: 5_000,
        idleTimeoutMs: 60_000,
        maxConnections: 1000,
      },
    })
  })

  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "8080",
      DATABASE_URL: "sqlite::memory:",
      PAYMENTS_SANDBOX: "false",
      PAYMENTS_JWT_SECRET: secret,
      PAYMENTS_HOSTED_URL: "https://pay.example.com/",
      LOG_LEVEL: "DEBUG",
      LOG_FORMAT: "Pretty",
      PAYMENTS_API_KEY: "pk_boot",
      PAYMENTS_API_SECRET: "sk_boot_secret",
      PAYMENTS_TOKEN_LIFETIME_SECONDS: "600",
      PAYMENTS_KEY_CACHE_SECONDS: "0",
      PAYMENTS_RATE_LIMIT_GENERAL: "2000",
      PAYMENTS_RATE_LIMIT_QUOTES: "30",
      PAYMENTS_RATE_LIMIT_PAYMENTS: "31",
      PAYMENTS_RATE_LIMIT_MULTI_CURRENCY: "10",
      PAYMENTS_RATE_LIMIT_FAILED_SESSIONS: "5",
      PAYMENTS_RATE_LIMIT_SESSIONS_PER_ADDRESS: "6",
      PAYMENTS_TRUSTED_PROXY_HOPS: "2",
      PAYMENTS_BATCH_CONCURRENCY: "3",
      PAYMENTS_BATCH_RATE: "50",
      PAYMENTS_PAYMENT_CONCURRENCY: "7",
      PAYMENTS_WEBHOOK_CONCURRENCY: "20",
      PAYMENTS_WEBHOOK_WORKSPACE_LANES: "3",
      PAYMENTS_ATTACHMENTS_DIR: "/srv/payments/attachments",
      PAYMENTS_SECRET_FILE: "/srv/payments/secret",
      PAYMENTS_UPLOADS_PER_KEY: "2",
      PAYMENTS_UPLOADS_PER_PROCESS: "9",
      PAYMENTS_HEADERS_TIMEOUT_SECONDS: "10",
      PAYMENTS_REQUEST_TIMEOUT_SECONDS: "30",
      PAYMENTS_KEEP_ALIVE_TIMEOUT_SECONDS: "2",
      PAYMENTS_IDLE_TIMEOUT_SECONDS: "15",
      PAYMENTS_MAX_CONNECTIONS: "200",
    })
    expect(config).toMatchObject({
      port: 8080,
      database: { dialect: "sqlite", filename: ":memory:" },
      sandbox: false,
      jwtSecret: secret,
      hostedUrl: "https://pay.example.com",
      logLevel: "debug",
      logFormat: "pretty",
      bootstrapKey: { key: "pk_boot", secret: "sk_boot_secret" },
      tokenLifetimeSeconds: 600,
      keyCacheSeconds: 0,
      jobConcurrency: { payments: 7, webhooks: 20 },
      webhookWorkspaceLanes: 3,
      rateLimits: {
        general: 2000,
        quotes: 30,
        payments: 31,
        multiCurrency: 10,
        failedSessions: 5,
        sessionsPerAddress: 6,
      },
      trustedProxyHops: 2,
      batchExecution: { concurrency: 3, perSecond: 50 },
      attachmentsDirectory: "/srv/payments/attachments",
      serverSecretFile: "/srv/payments/secret",
      uploads: { perKey: 2, perProcess: 9 },
      httpServer: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 2_000,
        idleTimeoutMs: 15_000,
        maxConnections: 200,
      },
    })
    expect(loadConfig({ DATABASE_URL: "sqlite:/var/lib/payments/db.sqlite" })).toMatchObject({
      attachmentsDirectory: "/var/lib/payments/attachments",
      serverSecretFile: "/var/lib/payments/server-secret",
    })
    // An in-memory database's secret lives and dies with the process, as the database does.
    expect(loadConfig({ DATABASE_URL: "sqlite::memory:" }).serverSecretFile).toBeUndefined()
    expect(loadConfig({ DATABASE_URL: "sqlite::memory:" }).attachmentsDirectory).toBe("data/attachments")
    expect(loadConfig({ PAYMENTS_RATE_LIMIT_QUOTES: "7" }).rateLimits).toMatchObject({ quotes: 7, general: 1000 })
    expect(loadConfig({ PORT: "8080" }).hostedUrl).toBe("http://localhost:8080")
  })

  it("turns sandbox off with Postgres, where the JWT secret is then required", () => {
    const url = "postgres://postgres@127.0.0.1:5432/payments"
    expect(problemsOf({ DATABASE_URL: url })).toEqual([expect.stringContaining("PAYMENTS_JWT_SECRET is required")])
    expect(loadConfig({ DATABASE_URL: url, PAYMENTS_JWT_SECRET: secret }).sandbox).toBe(false)
    expect(loadConfig({ DATABASE_URL: url, PAYMENTS_SANDBOX: "true" })).toMatchObject({
      sandbox: true,
      jwtSecret: undefined,
      serverSecretFile: "data/server-secret",
    })
    expect(problemsOf({ PAYMENTS_SANDBOX: "false" })).toEqual([
      expect.stringContaining("PAYMENTS_JWT_SECRET is required"),
    ])
  })

  it("treats empty values as unset", () => {
    expect(loadConfig({ PORT: "", PAYMENTS_JWT_SECRET: "", LOG_LEVEL: "" })).toMatchObject({
      port: 3000,
      logLevel: "info",
    })
  })

  it("names every wrong variable at once, without echoing secrets", () => {
    const problems = problemsOf({
      PORT: "http",
      DATABASE_URL: "mysql://root@db/payments",
      PAYMENTS_SANDBOX: "maybe",
      PAYMENTS_JWT_SECRET: "short-secret-value",
      PAYMENTS_HOSTED_URL: "ftp://files.example.com",
      LOG_LEVEL: "loud",
      LOG_FORMAT: "xml",
      PAYMENTS_API_KEY: "pk_only",
      PAYMENTS_TOKEN_LIFETIME_SECONDS: "0",
      PAYMENTS_KEY_CACHE_SECONDS: "61",
      PAYMENTS_RATE_LIMIT_QUOTES: "0",
      PAYMENTS_RATE_LIMIT_GENERAL: "lots",
      PAYMENTS_TRUSTED_PROXY_HOPS: "11",
      PAYMENTS_BATCH_CONCURRENCY: "0",
      PAYMENTS_BATCH_RATE: "fast",
      PAYMENTS_PAYMENT_CONCURRENCY: "101",
      PAYMENTS_WEBHOOK_CONCURRENCY: "0",
      PAYMENTS_UPLOADS_PER_KEY: "0",
      PAYMENTS_MAX_CONNECTIONS: "many",
      PAYMENTS_WEBHOOK_WORKSPACE_LANES: "half",
    })
    expect(problems).toEqual([
      'PORT must be an integer from 0 to 65535, got "http"',
      expect.stringContaining('Unsupported DATABASE_URL scheme "mysql:"'),
      'PAYMENTS_SANDBOX must be true or false, got "maybe"',
      "PAYMENTS_JWT_SECRET must be at least 32 characters",
      'PAYMENTS_HOSTED_URL must be an http:// or https:// URL, got "ftp://files.example.com"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      'LOG_FORMAT must be one of json, pretty, got "xml"',
      "PAYMENTS_API_KEY and PAYMENTS_API_SECRET must be set together",
      'PAYMENTS_TOKEN_LIFETIME_SECONDS must be an integer from 1 to 86400, got "0"',
      'PAYMENTS_KEY_CACHE_SECONDS must be an integer from 0 to 60, got "61"',
      'PAYMENTS_RATE_LIMIT_GENERAL must be an integer from 1 to 1000000, got "lots"',
      'PAYMENTS_RATE_LIMIT_QUOTES must be an integer from 1 to 1000000, got "0"',
      'PAYMENTS_BATCH_CONCURRENCY must be an integer from 1 to 100, got "0"',
      'PAYMENTS_BATCH_RATE must be an integer from 1 to 10000, got "fast"',
      'PAYMENTS_PAYMENT_CONCURRENCY must be an integer from 1 to 100, got "101"',
      'PAYMENTS_WEBHOOK_CONCURRENCY must be an integer from 1 to 100, got "0"',
      'PAYMENTS_WEBHOOK_WORKSPACE_LANES must be an integer from 1 to 100, got "half"',
      'PAYMENTS_TRUSTED_PROXY_HOPS must be an integer from 0 to 10, got "11"',
      'PAYMENTS_UPLOADS_PER_KEY must be an integer from 1 to 1000, got "0"',
      'PAYMENTS_MAX_CONNECTIONS must be an integer from 1 to 1000000, got "many"',
    ])
    expect(problemsOf({ PAYMENTS_HEADERS_TIMEOUT_SECONDS: "200" })).toEqual([
      "PAYMENTS_HEADERS_TIMEOUT_SECONDS must not be longer than PAYMENTS_REQUEST_TIMEOUT_SECONDS",
    ])
    expect(problems.join("\n")).not.toContain("short-secret-value")
    expect(problemsOf({ PORT: "65536" })).toHaveLength(1)
    expect(problemsOf({ PORT: "-1" })).toHaveLength(1)
    expect(problemsOf({ PAYMENTS_API_KEY: "has space", PAYMENTS_API_SECRET: " padded " })).toHaveLength(2)
  })

  it("serves metrics only when PAYMENTS_METRICS_PORT is set, on a port other than the API's", () => {
    expect(loadConfig({}).metricsPort).toBeUndefined()
    expect(loadConfig({ PAYMENTS_METRICS_PORT: "9464" }).metricsPort).toBe(9464)
    expect(loadConfig({ PORT: "0", PAYMENTS_METRICS_PORT: "0" }).metricsPort).toBe(0)
    expect(problemsOf({ PAYMENTS_METRICS_PORT: "metrics" })).toEqual([
      'PAYMENTS_METRICS_PORT must be an integer from 0 to 65535, got "metrics"',
    ])
    expect(problemsOf({ PORT: "9464", PAYMENTS_METRICS_PORT: "9464" })).toEqual([
      "PAYMENTS_METRICS_PORT must differ from PORT: the metrics are served apart from the API",
    ])
  })

  it("traces only when the OpenTelemetry variables ask, over OTLP/HTTP JSON or to the console", () => {
    expect(loadConfig({}).traces).toBeUndefined()
    expect(loadConfig({ OTEL_TRACES_EXPORTER: "console" }).traces).toEqual({
      exporter: "console",
      serviceName: "payments-engine",
    })
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).traces).toEqual({
      exporter: "otlp",
      serviceName: "payments-engine",
    })
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector.example/v1/traces",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "payments-eu",
      }).traces,
    ).toEqual({ exporter: "otlp", serviceName: "payments-eu" })
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" }).traces,
    ).toBeUndefined()
    expect(loadConfig({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SDK_DISABLED: "true" }).traces).toBeUndefined()
    expect(problemsOf({ OTEL_TRACES_EXPORTER: "jaeger" })).toEqual([
      'OTEL_TRACES_EXPORTER must be otlp, console or none, got "jaeger"',
    ])
    expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got "collector:4318"',
    ])
    expect(problemsOf({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" })).toEqual([
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http/json (OTLP over HTTP with JSON, the one protocol the service sends), got "grpc"',
    ])
  })

  it("reports through a ConfigError whose message lists the problems", () => {
    expect(() => loadConfig({ PORT: "x" })).toThrowError(/^Invalid configuration:\n {2}- PORT must be/)
  })
})
