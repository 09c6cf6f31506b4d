import { connect } from "node:net"

/** What a raw exchange got back: the status of the first response line, and everything read. */
export interface RawAnswer {
  /** The status of the first answer, or undefined when the server sent nothing. */
  readonly status: number | undefined
  /** The first answer's body (after the blank line; still chunked when the server chunked it). */
  readonly body: string
  readonly text: string
}

/** Options of {@link rawExchange}. */
export interface RawExchangeOptions {
  /** Closes the socket once everything is written, without waiting for an answer (an aborted request). */
  readonly abort?: boolean
}

/**
 * Writes bytes to a server over a plain TCP socket, exactly as given (whatever HTTP they break),
 * and reads until the server closes the connection. Send `Connection: close` for well-formed
 * requests, or the server keeps the socket open.
 *
 * @example
 * const answer = await rawExchange(port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
 * answer.status // 200
 */
export const rawExchange = (
  port: number,
  parts: string | Uint8Array | ReadonlyArray<string | Uint8Array>,
  options: RawExchangeOptions = {},
): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const received: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => received.push(chunk))
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // A server may reset a connection it refused; what it answered first still counts.
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") reject(error)
    })
    socket.on("close", () => {
      const text = Buffer.concat(received).toString("latin1")
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]
      const blank = text.indexOf("\r\n\r\n")
      resolve({ status: status === undefined ? undefined : Number(status), body: text.slice(blank + 4), text })
    })
    const list = typeof parts === "string" || parts instanceof Uint8Array ? [parts] : parts
    for (const part of list) socket.write(part)
    if (options.abort) socket.end(() => socket.destroy())
  })

/**
 * The head of an HTTP/1.1 request, ending in the blank line: request line, `Host`,
 * `Connection: close`, then `headers` in order.
 *
 * @example
 * requestHead("POST", "/api/v1/sessions", ["Content-Type: application/json", "Content-Length: 2"])
 */
export const requestHead = (method: string, path: string, headers: ReadonlyArray<string>): string =>
  [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close", ...headers, "", ""].join("\r\n")

/** The body of a chunked answer or request, in one chunk and the last one. */
export const oneChunk = (data: string | Uint8Array): Array<string | Uint8Array> => {
  const length = typeof data === "string" ? Buffer.byteLength(data) : data.length
  return [`${length.toString(16)}\r\n`, data, "\r\n0\r\n\r\n"]
}
