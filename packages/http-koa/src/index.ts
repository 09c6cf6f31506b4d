export { type AppOptions, createApp, type RateLimitOptions } from "./app.ts"
export type { AppContext, AppMiddleware, AppState } from "./app-state.ts"
export {
  type BearerTokenOptions,
  type BearerTokens,
  bearerTokens,
  defaultTokenLifetimeSeconds,
} from "./bearer-tokens.ts"
export { bootstrapApiKey, bootstrapWorkspace } from "./bootstrap.ts"
export { type CliIo, runCli, usage } from "./cli.ts"
export {
  ConfigError,
  databaseUrlOf,
  defaultDatabaseUrl,
  type Environment,
  loadConfig,
  type ServiceConfig,
} from "./config.ts"
export { HttpError, httpErrors, httpStatusOf, statusOfKind } from "./http-error.ts"
export { jobLogTo } from "./job-log.ts"
export { createLogger, type Logger, type LoggerOptions, type LogLevel, logLevels } from "./logger.ts"
export { type OpenApiDocument, type OpenApiOptions, openApiDocument } from "./openapi/openapi-document.ts"
export { type PageLinks, pagingLinks } from "./paging-links.ts"
// The Postgres rate-limit store is in `./postgres.ts` (the `/postgres` subpath): it loads pg, an
// optional peer this entry must load without.
export { rateLimitSchema, rateLimitTable } from "./rate-limits/rate-limit-schema.ts"
export {
  defaultRateLimits,
  maxRateLimit,
  type RateLimitName,
  type RateLimitSettings,
  rateLimitSettings,
  rateLimitVariables,
  rateLimitWindowSeconds,
} from "./rate-limits/rate-limit-settings.ts"
export { memoryRateLimitStore, type RateLimitStore } from "./rate-limits/rate-limit-store.ts"
export { type RateLimiting, type RateLimitOutcome, rateLimiting } from "./rate-limits/rate-limiting.ts"
export { apiRoutes } from "./routes/api-routes.ts"
export { type RegisteredRoutes, type RouteDependencies, registerRoutes } from "./routes/register-routes.ts"
export type {
  AuthenticatedRoute,
  HttpMethod,
  PublicRoute,
  PublicRouteCall,
  RouteCall,
  RouteResponse,
  RouteSpec,
} from "./routes/route-table.ts"
export { sandboxRoutes } from "./routes/sandbox-routes.ts"
export {
  type RunningService,
  type StartServiceOptions,
  sandboxProvidersWarning,
  startService,
} from "./server.ts"
export { legacySecretSetting, serverSecretFileMode, serverSecretFor } from "./server-secret.ts"
export { createServiceEngine, type ServiceEngineOptions } from "./service-engine.ts"
export { StartupError } from "./startup-error.ts"
