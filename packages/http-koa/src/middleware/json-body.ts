import type { IncomingMessage } from "node:http"
import type { AppMiddleware } from "../app-state.ts"
import { httpErrors } from "../http-error.ts"

/** The largest JSON body accepted: 1 MB. */
export const defaultJsonBodyLimit = 1024 * 1024

/** Options of {@link jsonBody}. */
export interface JsonBodyOptions {
  /** Largest body in bytes; {@link defaultJsonBodyLimit} by default. */
  readonly limitBytes?: number
}

/** The deepest nesting of arrays and objects accepted in a body. */
export const maxJsonDepth = 64

/** What {@link inspectJson} finds in a parsed body. */
export interface JsonInspection {
  /** How deeply arrays and objects nest. */
  readonly depth: number
  /** The dotted path of the first string holding U+0000 (`body` for a key), if any. */
  readonly nulAt: string | undefined
}

/**
 * Walks a parsed JSON value without recursion: its nesting depth, and where a string carries the
 * NUL character, which Postgres cannot store in text.
 *
 * @example
 * inspectJson({ a: [{ b: "x\u0000" }] }) // { depth: 3, nulAt: "a.0.b" }
 */
export const inspectJson = (value: unknown): JsonInspection => {
  let depth = 0
  let nulAt: string | undefined
  const pending: Array<[unknown, number, ReadonlyArray<string>]> = [[value, 0, []]]
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [current, level, path] = item
    if (typeof current === "string") {
      if (nulAt === undefined && current.includes("\u0000")) nulAt = path.length === 0 ? "body" : path.join(".")
      continue
    }
    if (typeof current !== "object" || current === null) continue
    depth = Math.max(depth, level + 1)
    for (const [key, child] of Object.entries(current)) {
      if (nulAt === undefined && key.includes("\u0000")) nulAt = "body"
      pending.push([child, level + 1, [...path, key]])
    }
  }
  return { depth, nulAt }
}

/**
 * True for `application/json` and `application/<anything>+json`, whatever the parameters.
 *
 * @example
 * isJsonMediaType("application/json; charset=utf-8") // true
 * isJsonMediaType("text/plain") // false
 */
export const isJsonMediaType = (contentType: string | undefined): boolean => {
  const media = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  return media === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(media)
}

const hasBody = (req: IncomingMessage): boolean => {
  const length = req.headers["content-length"]
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0")
}

/**
 * Reads the whole body, at most `limit` bytes. Past the limit it stops keeping bytes but lets the
 * rest flow to nowhere, so the connection stays usable and the client can read the 413.
 */
const readBytes = (req: IncomingMessage, limit: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"])
    if (Number.isFinite(declared) && declared > limit) {
      req.resume()
      reject(httpErrors.tooLarge())
      return
    }
    const chunks: Array<Buffer> = []
    let size = 0
    const cleanup = () => {
      req.off("data", onData)
      req.off("end", onEnd)
      req.off("error", onError)
      req.off("aborted", onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        cleanup()
        chunks.length = 0
        req.resume()
        reject(httpErrors.tooLarge())
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      resolve(Buffer.concat(chunks))
    }
    const onError = () => {
      cleanup()
      reject(httpErrors.incompleteBody())
    }
    req.on("data", onData)
    req.on("end", onEnd)
    req.on("error", onError)
    req.on("aborted", onError)
  })

/**
 * Parses a JSON request body into `ctx.state.body`; no body at all is `{}`. Any JSON value
 * passes, the engine decides whether it fits the request's schema. Refused here:
 * - a body not declared as JSON, or compressed: 415;
 * - over the limit (1 MB): 413;
 * - not parseable: 400 `body` / `Malformed JSON`; nested deeper than {@link maxJsonDepth}: 400;
 * - a string holding U+0000, which Postgres cannot store: 422 on its dotted path (until the
 *   core's text fields refuse it themselves).
 *
 * @example
 * router.post("/api/v1/companies", jsonBody(), async (ctx) => { ctx.body = await create(ctx.state.body) })
 */
export const jsonBody = (options: JsonBodyOptions = {}): AppMiddleware => {
  const limit = options.limitBytes ?? defaultJsonBodyLimit
  return async (ctx, next) => {
    const req = ctx.req
    if (!hasBody(req)) {
      ctx.state.body = {}
      return next()
    }
    if (!isJsonMediaType(req.headers["content-type"])) {
      req.resume()
      throw httpErrors.notJson()
    }
    const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase()
    if (encoding !== "identity" && encoding !== "") {
      req.resume()
      throw httpErrors.encodedBody()
    }
    const text = (await readBytes(req, limit)).toString("utf8")
    if (text.trim() === "") {
      ctx.state.body = {}
      return next()
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw httpErrors.malformedJson()
    }
    const { depth, nulAt } = inspectJson(parsed)
    if (depth > maxJsonDepth) throw httpErrors.tooDeep(maxJsonDepth)
    if (nulAt !== undefined) throw httpErrors.nulCharacter(nulAt)
    ctx.state.body = parsed
    return next()
  }
}
