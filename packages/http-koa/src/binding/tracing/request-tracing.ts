import { context, propagation, SpanKind, SpanStatusCode, type TracerProvider, trace } from "@opentelemetry/api"
import type { AppMiddleware } from "../app-state.ts"
import { routeTemplateOf } from "../route-template.ts"

/** The scope the app's request spans are reported under. */
export const appTracerName = "@payments-engine/http-koa"

/**
 * One server span per request, `HTTP <method> <route template>` (`HTTP POST
 * /api/v1/companies/{cid}/payments`; `HTTP <method>` alone for a path no route matched, never
 * the raw path), with `http.request.method`, `http.route`, `http.response.status_code` and the
 * request id (`payments.request_id`), no header and no body. It is active while the request runs,
 * so the engine's use cases are its children. A `traceparent` the request carries (read by the
 * API's propagator: the SDK's `NodeTracerProvider.register()` installs the W3C one) makes it a
 * child of the caller's span; a malformed one is ignored. A span already active when the request
 * comes in (an HTTP instrumentation of the host's) is its parent instead. A 5xx answer is an error
 * (`error.type` its status); a 4xx is the client's, and not. Sits inside the request id and outside
 * the error rendering, so it sees the status that rendering chose.
 *
 * @example
 * import type { TracerProvider } from "@opentelemetry/api"
 * declare const tracerProvider: TracerProvider
 * app.use(requestId()).use(requestTracing(tracerProvider)).use(accessLog(logger))
 */
export const requestTracing = (tracerProvider: TracerProvider): AppMiddleware => {
  const tracer = tracerProvider.getTracer(appTracerName)
  return async (ctx, next) => {
    const active = context.active()
    const parent = trace.getSpan(active) === undefined ? propagation.extract(active, ctx.req.headers) : active
    const method = ctx.method
    const span = tracer.startSpan(
      `HTTP ${method}`,
      {
        kind: SpanKind.SERVER,
        attributes: { "http.request.method": method, "payments.request_id": ctx.state.requestId },
      },
      parent,
    )
    try {
      await context.with(trace.setSpan(parent, span), next)
    } finally {
      const route = routeTemplateOf(ctx)
      if (route !== "unmatched") {
        span.updateName(`HTTP ${method} ${route}`)
        span.setAttribute("http.route", route)
      }
      span.setAttribute("http.response.status_code", ctx.status)
      if (ctx.status >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR })
        span.setAttribute("error.type", String(ctx.status))
      }
      span.end()
    }
  }
}
