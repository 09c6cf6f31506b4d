import type { Logger } from "pino"
import type { AppMiddleware } from "../app-state.ts"
import { plainLines } from "../logger.ts"

/**
 * Writes one JSON log line per request once it is answered: request id, method, path (without
 * the query, which may carry hosted-page tokens), status and duration. Never bodies, headers or
 * secrets. 5xx answers log at `error`, others at `info`.
 *
 * @example
 * app.use(requestId()).use(accessLog(logger))
 */
export const accessLog = (logger: Logger): AppMiddleware => {
  const write = plainLines(logger)
  return async (ctx, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      const line = {
        request_id: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      }
      write(ctx.status >= 500 ? "error" : "info", line, "request")
    }
  }
}
