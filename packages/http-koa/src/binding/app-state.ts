import type { Actor } from "@payments-engine/core"
import type { Middleware, ParameterizedContext } from "koa"
import type { RateLimitOutcome } from "./rate-limits/rate-limiting.ts"
import type { MultipartForm } from "./uploaded-form.ts"

/** What the middleware leave on `ctx.state` for the ones after them. */
export interface AppState {
  /** The request id echoed in `X-Request-Id` and written in every log line of the request. */
  requestId: string
  /** Who calls, once the bearer token is checked. */
  actor?: Actor
  /**
   * The parsed JSON body of a POST or PATCH (`{}` when empty); for a form, what its
   * `Idempotency-Key` fingerprints (fields, and the file's name, size and SHA-256).
   */
  body?: unknown
  /** The `multipart/form-data` body of an upload route, its file received whole into a spool file. */
  form?: MultipartForm
  /** The rate limit the `X-RateLimit-*` headers tell of, once one counted the request. */
  rateLimit?: RateLimitOutcome
}

/** The Koa context of this binding. */
export type AppContext = ParameterizedContext<AppState>

/** A Koa middleware of this binding. */
export type AppMiddleware = Middleware<AppState>
