import type { Actor } from "@payments-engine/core"
import type { AppContext, AppMiddleware } from "../app-state.ts"
import type { BearerTokens } from "../bearer-tokens.ts"
import { httpErrors } from "../http-error.ts"

const bearer = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i

/**
 * The token of an `Authorization: Bearer <token>` header, if it has that form.
 *
 * @example
 * bearerTokenOf("Bearer eyJhbGciOi...") // "eyJhbGciOi..."
 * bearerTokenOf("Basic dXNlcjpwYXNz") // undefined
 */
export const bearerTokenOf = (header: string | undefined): string | undefined =>
  header === undefined ? undefined : bearer.exec(header)?.[1]

/**
 * True for paths under `/api`, compared case-insensitively, which need a token unless public.
 *
 * @example
 * isApiPath("/API/v1/companies") // true
 * isApiPath("/health") // false
 */
export const isApiPath = (path: string): boolean => {
  const lower = path.toLowerCase()
  return lower === "/api" || lower.startsWith("/api/")
}

/** Options of {@link authentication}. */
export interface AuthenticationOptions {
  readonly tokens: BearerTokens
  /** True when the method and path reach a route that needs no token (`POST /api/v1/sessions`). */
  readonly isPublic: (method: string, path: string) => boolean
}

/**
 * Checks the bearer token of every `/api` request before routing, so an unauthenticated request
 * answers 401 `token` / `Missing or invalid token` even on an unknown path. The token's claims
 * become `ctx.state.actor`. Requests outside `/api` (health, OpenAPI document) pass untouched.
 *
 * @example
 * app.use(authentication({ tokens, isPublic: (method, path) => method === "POST" && path === "/api/v1/sessions" }))
 */
export const authentication =
  (options: AuthenticationOptions): AppMiddleware =>
  async (ctx, next) => {
    if (!isApiPath(ctx.path) || options.isPublic(ctx.method, ctx.path)) return next()
    const token = bearerTokenOf(ctx.get("Authorization") || undefined)
    const actor = token === undefined ? undefined : await options.tokens.verify(token)
    if (actor === undefined) throw httpErrors.invalidToken()
    ctx.state.actor = actor
    return next()
  }

/**
 * The actor of an authenticated route; a 401 if authentication did not run (defence in depth: a
 * route that needs a token never runs without one, whatever the path matching did).
 *
 * @example
 * const actor = requireActor(ctx)
 */
export const requireActor = (ctx: AppContext): Actor => {
  const actor = ctx.state.actor
  if (actor === undefined) throw httpErrors.invalidToken()
  return actor
}
