import { isDomainError } from "@payments-engine/core"
import type { Logger } from "pino"
import type { AppContext, AppMiddleware } from "../app-state.ts"
import { errorLogFields } from "../error-log-fields.ts"
import { HttpError, httpStatusOf } from "../http-error.ts"

/** The body of every error answer. */
export interface ErrorBody {
  readonly errors: ReadonlyArray<{ readonly field: string; readonly message: string }>
}

const internalError: ErrorBody = { errors: [{ field: "base", message: "Internal server error" }] }

/** An error Koa or a library raised on purpose for a client mistake (http-errors style). */
const clientHttpError = (error: unknown): { status: number; message: string } | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  const { status, expose, message } = error as { status?: unknown; expose?: unknown; message?: unknown }
  if (typeof status !== "number" || status < 400 || status >= 500 || expose !== true) return undefined
  return { status, message: typeof message === "string" && message !== "" ? message : "Bad request" }
}

/**
 * Turns a thrown error into the response: a domain error with the status of its kind
 * (`statusOfKind`) or an {@link HttpError} with its own, and their `errors`; anything else
 * is a 500 `base` / `Internal server error`, logged with its allow-listed fields (its stack's
 * frames, not its message: {@link errorLogFields}) and never shown to the client.
 *
 * @example
 * try { await next() } catch (error) { renderError(ctx, error, logger) }
 */
export const renderError = (ctx: AppContext, error: unknown, logger: Logger): void => {
  let status: number
  let body: ErrorBody
  if (isDomainError(error) || error instanceof HttpError) {
    status = isDomainError(error) ? httpStatusOf(error) : error.status
    body = { errors: error.errors.map(({ field, message }) => ({ field, message })) }
    if (status >= 500) logger.error({ request_id: ctx.state.requestId, err: errorLogFields(error) }, "request failed")
  } else {
    const client = clientHttpError(error)
    if (client !== undefined) {
      status = client.status
      body = { errors: [{ field: "base", message: client.message }] }
    } else {
      status = 500
      body = internalError
      logger.error({ request_id: ctx.state.requestId, err: errorLogFields(error) }, "unexpected error")
    }
  }
  ctx.status = status
  ctx.body = body
  if (status === 401) ctx.set("WWW-Authenticate", "Bearer")
}

/**
 * Catches whatever the rest of the chain throws and renders it with {@link renderError}.
 *
 * @example
 * app.use(errorRendering(logger))
 */
export const errorRendering =
  (logger: Logger): AppMiddleware =>
  async (ctx, next) => {
    try {
      await next()
    } catch (error) {
      renderError(ctx, error, logger)
    }
  }
