import type { IncomingMessage } from "node:http"
import { finished } from "node:stream"
import { maxJsonDepth } from "@payments-engine/core"
import type { AppMiddleware } from "../app-state.ts"
import { type HttpError, httpErrors } from "../http-error.ts"
import { exceedsJsonDepth, findNulPath } from "./json-inspection.ts"

/** The largest JSON body accepted: 1 MB. */
export const defaultJsonBodyLimit = 1024 * 1024

/** Options of {@link jsonBody}. */
export interface JsonBodyOptions {
  /** Largest body in bytes; {@link defaultJsonBodyLimit} by default. */
  readonly limitBytes?: number
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

/**
 * The 415 of a body the binding cannot read as sent: compressed (`Content-Encoding` other than
 * `identity`), or with a transfer coding other than plain `chunked` (`gzip, chunked` would reach
 * the parser still compressed); undefined for a body it can read.
 *
 * @example
 * declare const req: import("node:http").IncomingMessage
 * codingRefusal(req) // httpErrors.encodedBody() for `Content-Encoding: gzip`
 */
export const codingRefusal = (req: IncomingMessage): HttpError | undefined => {
  const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase()
  if (encoding !== "identity" && encoding !== "") return httpErrors.encodedBody()
  const transfer = req.headers["transfer-encoding"]
  if (transfer !== undefined && transfer.trim().toLowerCase() !== "chunked") return httpErrors.transferEncodedBody()
  return undefined
}

const hasBody = (req: IncomingMessage): boolean => {
  const length = req.headers["content-length"]
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0")
}

/**
 * Reads the whole body, at most `limit` bytes. Past the limit it stops keeping bytes but lets the
 * rest flow to nowhere, so the connection stays usable and the client can read the 413. A request
 * whose connection ended or broke first (aborted, or a parser error on the same socket, which may
 * come before this middleware runs) rejects at once rather than waiting forever.
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
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        stop()
        chunks.length = 0
        req.resume()
        reject(httpErrors.tooLarge())
        return
      }
      chunks.push(chunk)
    }
    const stopWatching = finished(req, (error) => {
      stop()
      if (error === undefined || error === null) resolve(Buffer.concat(chunks))
      else reject(httpErrors.incompleteBody())
    })
    const stop = () => {
      req.off("data", onData)
      stopWatching()
    }
    req.on("data", onData)
  })

/**
 * Parses a JSON request body into `ctx.state.body`; no body at all is `{}`. Any JSON value
 * passes, the engine decides whether it fits the request's schema. Refused here:
 * - a body not declared as JSON, compressed, or sent with a transfer coding other than plain
 *   `chunked` (`gzip, chunked` would otherwise reach JSON.parse still compressed): 415;
 * - over the limit (1 MB): 413;
 * - nested deeper than {@link maxJsonDepth}, judged on the text before parsing: 400 `body`;
 * - not parseable: 400 `body` / `Malformed JSON`;
 * - a string holding U+0000, which Postgres cannot store: 422 on its dotted path (until the
 *   core's text fields refuse it themselves).
 *
 * @example
 * declare const create: (body: unknown) => Promise<unknown>
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
    const coding = codingRefusal(req)
    if (coding !== undefined) {
      req.resume()
      throw coding
    }
    const text = (await readBytes(req, limit)).toString("utf8")
    if (text.trim() === "") {
      ctx.state.body = {}
      return next()
    }
    // Before parsing: a deep body costs one pass over its text and nothing more.
    if (exceedsJsonDepth(text, maxJsonDepth)) throw httpErrors.tooDeep(maxJsonDepth)
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw httpErrors.malformedJson()
    }
    const nulAt = findNulPath(parsed)
    if (nulAt !== undefined) throw httpErrors.nulCharacter(nulAt)
    ctx.state.body = parsed
    return next()
  }
}
