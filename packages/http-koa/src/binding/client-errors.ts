import type { Server } from "node:http"
import type { Duplex } from "node:stream"
import type { Logger } from "pino"
import { errorLogFields } from "./error-log-fields.ts"

/**
 * The message of the log line of a request the client broke: bytes that are not HTTP, a
 * connection reset, a client too slow to send its headers. The line's `err.code` says which.
 */
export const clientErrorMessage = "client error"

/**
 * True for an error of Node's HTTP parser (`HPE_*` codes): the bytes the client sent were not
 * HTTP. The client's fault, not the service's, so it is logged at `info`, never at `error`.
 *
 * @example
 * isHttpParserError(Object.assign(new Error("Parse Error"), { code: "HPE_INVALID_CHUNK_SIZE" })) // true
 */
export const isHttpParserError = (error: unknown): boolean => {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined
  return typeof code === "string" && code.startsWith("HPE_")
}

/** Node's own answers to a client error, kept as its default handler writes them. */
const answerOf = (code: unknown): string => {
  const status =
    code === "HPE_HEADER_OVERFLOW"
      ? "431 Request Header Fields Too Large"
      : code === "HPE_CHUNK_EXTENSIONS_OVERFLOW"
        ? "413 Payload Too Large"
        : code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "408 Request Timeout"
          : "400 Bad Request"
  return `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`
}

/**
 * Logs the server's client errors (a request line or headers that are not HTTP, a broken chunk,
 * a client too slow to send its headers) at `info` with the allow-listed error fields, and
 * answers them as Node's default handler does, which a listener replaces: 400 (431 for headers
 * over the limit, 413 for chunk extensions, 408 for a timeout) when no answer has started on the
 * socket, then the socket is closed. Without a listener Node answers without a word in the log.
 *
 * @example
 * answerClientErrors(createServer(app.callback()), logger)
 */
export const answerClientErrors = (server: Server, logger: Logger): void => {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    logger.info({ err: errorLogFields(error) }, clientErrorMessage)
    // Node's default writes only where no response of a request in flight has sent its head.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (socket.writable && inFlight?.headersSent !== true) socket.write(answerOf(error.code))
    socket.destroy(error)
  })
}
