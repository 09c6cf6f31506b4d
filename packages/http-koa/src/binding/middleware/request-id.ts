import { randomUUID } from "node:crypto"
import type { AppMiddleware } from "../app-state.ts"

/** What a client-sent `X-Request-Id` must look like to be echoed. */
export const acceptableRequestId = /^[A-Za-z0-9._:-]{1,200}$/

/**
 * A fresh request id: `req_` and 32 hex characters.
 *
 * @example
 * newRequestId() // "req_0f8e5c9a1b2d4e6f8a0b1c2d3e4f5a6b"
 */
export const newRequestId = (): string => `req_${randomUUID().replaceAll("-", "")}`

/**
 * Gives every request an id and every response an `X-Request-Id` header: the client's own when it
 * is 1 to 200 characters of `[A-Za-z0-9._:-]`, a generated one otherwise.
 *
 * @example
 * app.use(requestId())
 */
export const requestId = (): AppMiddleware => async (ctx, next) => {
  const sent = ctx.get("X-Request-Id")
  const id = acceptableRequestId.test(sent) ? sent : newRequestId()
  ctx.state.requestId = id
  ctx.set("X-Request-Id", id)
  await next()
}
