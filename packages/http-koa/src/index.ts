export { type AppOptions, createApp, type RateLimitOptions } from "./binding/app.ts"
export type { AppContext, AppMiddleware, AppState } from "./binding/app-state.ts"
export {
  type BearerTokenOptions,
  type BearerTokens,
  bearerTokens,
  defaultTokenLifetimeSeconds,
} from "./binding/bearer-tokens.ts"
export { HttpError, httpErrors, httpStatusOf, statusOfKind } from "./binding/http-error.ts"
export { createLogger, type Logger, type LoggerOptions, type LogLevel, logLevels } from "./binding/logger.ts"
export { type AppMetrics, type IdempotencyOutcome, requestMetrics } from "./binding/metrics/app-metrics.ts"
export { type OpenApiDocument, type OpenApiOptions, openApiDocument } from "./binding/openapi/openapi-document.ts"
export { type PageLinks, pagingLinks } from "./binding/paging-links.ts"
export {
  defaultRateLimits,
  maxRateLimit,
  type RateLimitName,
  type RateLimitSettings,
  rateLimitSettings,
  rateLimitVariables,
  rateLimitWindowSeconds,
} from "./binding/rate-limits/rate-limit-settings.ts"
export { type RateLimiting, type RateLimitOutcome, rateLimiting } from "./binding/rate-limits/rate-limiting.ts"
export { type ReadinessCheckName, type ReadinessReport, readinessReport } from "./binding/readiness.ts"
export { apiRoutes } from "./binding/routes/api-routes.ts"
export { type RegisteredRoutes, type RouteDependencies, registerRoutes } from "./binding/routes/register-routes.ts"
export type {
  AuthenticatedRoute,
  HttpMethod,
  PublicRoute,
  PublicRouteCall,
  RouteCall,
  RouteResponse,
  RouteSpec,
  UncheckedBody,
} from "./binding/routes/route-table.ts"
export { sandboxRoutes } from "./binding/routes/sandbox-routes.ts"
export { appTracerName, requestTracing } from "./binding/tracing/request-tracing.ts"
export { bootstrapApiKey, bootstrapWorkspace } from "./service/bootstrap.ts"
export { type CliIo, runCli, usage } from "./service/cli.ts"
export {
  ConfigError,
  databaseUrlOf,
  defaultDatabaseUrl,
  type Environment,
  loadConfig,
  type ServiceConfig,
  type TracesConfig,
} from "./service/config.ts"
export { jobLogTo } from "./service/job-log.ts"
export { metricPrefix, metricsServer, type ServiceMetrics, serviceMetrics } from "./service/metrics.ts"
export {
  type RunningService,
  type StartServiceOptions,
  sandboxProvidersWarning,
  startService,
} from "./service/server.ts"
export { legacySecretSetting, serverSecretFileMode, serverSecretFor } from "./service/server-secret.ts"
export { createServiceEngine, type ServiceEngineOptions } from "./service/service-engine.ts"
export { StartupError } from "./service/startup-error.ts"
