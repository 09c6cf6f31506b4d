import type { AppMiddleware } from "../app-state.ts"
import type { RateLimitName } from "../rate-limits/rate-limit-settings.ts"
import { routeTemplateOf } from "../route-template.ts"

/** How an `Idempotency-Key` request ended before its route ran, or that it ran. */
export type IdempotencyOutcome = "replayed" | "in_flight" | "mismatch"

/**
 * What the app tells a metrics registry (the service binds it to prom-client; see
 * `serviceMetrics`). Labels are bounded: route templates, methods, statuses and names of limits,
 * never ids or raw paths.
 */
export interface AppMetrics {
  /** One request answered: its method, route template (`unmatched` when none), status and duration in seconds. */
  request(method: string, route: string, status: number, seconds: number): void
  /** A request refused with 429 by the rate limit `limit`. */
  rateLimited(limit: RateLimitName): void
  /** An `Idempotency-Key` request replayed or refused by the idempotency rules. */
  idempotency(outcome: IdempotencyOutcome): void
}

/**
 * Times each request and tells `metrics` once it is answered, with the status the error
 * rendering chose (so it sits outside it). An unknown path counts under `unmatched`, so a
 * stranger probing paths cannot grow the label set.
 *
 * @example
 * declare const metrics: AppMetrics
 * app.use(requestId()).use(requestMetrics(metrics)).use(accessLog(logger))
 */
export const requestMetrics =
  (metrics: AppMetrics): AppMiddleware =>
  async (ctx, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      metrics.request(ctx.method, routeTemplateOf(ctx), ctx.status, (performance.now() - started) / 1000)
    }
  }
