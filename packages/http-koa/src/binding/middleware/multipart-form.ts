import { createHash, randomBytes } from "node:crypto"
import { createReadStream, createWriteStream } from "node:fs"
import { rm } from "node:fs/promises"
import type { IncomingMessage } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { finished, type Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import busboy from "busboy"
import type { AppContext, AppMiddleware } from "../app-state.ts"
import { HttpError, httpErrors } from "../http-error.ts"
import type { MultipartForm, UploadedFile } from "../uploaded-form.ts"
import { codingRefusal } from "./json-body.ts"
import type { UploadSlots } from "./upload-slots.ts"

/** Options of {@link multipartForm}. */
export interface MultipartFormOptions {
  /** The largest file in bytes, accepted: one byte more and the request is answered 413 and its connection closed. */
  readonly maxFileBytes: number
  /** Uploads in progress, per key and per process: one is taken before the body is read. */
  readonly slots?: UploadSlots
  /** Where files are spooled while their request runs; the system's temporary directory by default. */
  readonly spoolDirectory?: string
}

/** What a form may hold besides its file: text fields, their size, parts, part headers. */
export const multipartLimits = {
  /** Text fields (the API asks for one). */
  fields: 8,
  /** Bytes of one text field's value. */
  fieldSize: 1024,
  /** Bytes of a field's name. */
  fieldNameSize: 100,
  /** Parts in all, files and fields. */
  parts: 10,
  /** Header lines of one part. */
  headerPairs: 16,
} as const

/**
 * The bytes a form may take beyond its file: boundaries, part headers and the text fields
 * ({@link multipartLimits}), with room to spare. A body declared larger than the file limit plus
 * this is refused before a byte of it is read.
 */
export const multipartOverheadBytes = 64 * 1024

/** 400 `body`: a form busboy cannot read (no boundary, cut short, broken part headers). */
const malformedForm = () => HttpError.of(400, "body", "Malformed multipart/form-data body")
/** 415 `body`: a body that is not a form where a form is expected. */
const notMultipart = () => HttpError.of(415, "body", "Content-Type must be multipart/form-data")

/** What a refused request may still send after its answer, read and discarded, before its connection is closed. */
export const lingeringClose = { bytes: 1024 * 1024, milliseconds: 2_000 } as const

/**
 * Closes the connection of `req` as nginx's lingering close does, once Node closes it after an
 * answer with `Connection: close`: the answer is followed by the end of the stream, and what the
 * client is still sending is read and discarded until it stops, {@link lingeringClose}'s bytes
 * have come or its time is up. Closed at once on bytes not read, the connection would be reset,
 * and a reset can reach the client before it reads the answer (a `write EPIPE` instead of the 413,
 * seen in CI).
 */
const closeLingering = (req: IncomingMessage) => {
  const socket = req.socket
  if (socket.destroyed) return
  socket.destroySoon = () => {
    if (socket.destroyed) return
    socket.end()
    let discarded = 0
    const close = () => {
      clearTimeout(timer)
      socket.destroy()
    }
    const timer = setTimeout(close, lingeringClose.milliseconds)
    timer.unref()
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length
      if (discarded > lingeringClose.bytes) close()
    })
    req.once("end", close)
    socket.once("end", close)
    socket.once("close", () => clearTimeout(timer))
    req.resume()
  }
}

/**
 * Answers with `Connection: close` and reads nothing more of the request until the answer is out:
 * the client is told at once, and no more of its body is received than the lingering close lets
 * it send (see `closeLingering`).
 */
const stopReading = (ctx: AppContext, req: IncomingMessage) => {
  ctx.set("Connection", "close")
  closeLingering(req)
  req.unpipe()
  req.pause()
}

/**
 * Reads the body with busboy, within `maxFileBytes` for the one file and the
 * {@link multipartLimits} for the rest, writing the file to `spoolPath` (owner-only) as it comes,
 * hashed and counted on the way: memory holds a chunk or two of it, never the file.
 */
const readForm = (ctx: AppContext, maxFileBytes: number, spoolPath: string): Promise<MultipartForm> =>
  new Promise((resolve, reject) => {
    const req = ctx.req
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: "utf8",
        // busboy reports `limit` when a file reaches `fileSize`: one byte more than the largest
        // accepted, so that a file of exactly `maxFileBytes` passes.
        limits: { ...multipartLimits, fileSize: maxFileBytes + 1, files: 1 },
      })
    } catch {
      // No boundary, or not a form busboy knows: nothing of it is read.
      stopReading(ctx, req)
      reject(malformedForm())
      return
    }
    const fields: Record<string, string> = {}
    let file: UploadedFile | undefined
    let fileStream: Readable | undefined
    let reading: Promise<void> = Promise.resolve()
    let received = 0
    let settled = false
    const maxBody = maxFileBytes + multipartOverheadBytes

    /** Closed once the spool's stream has let go of its file (at once when no file was begun). */
    let spoolClosed: Promise<unknown> = Promise.resolve()

    /**
     * Every refusal stops reading and closes: what is left of the body is never received. It is
     * told once the spool file is closed, so that the file the middleware then removes cannot be
     * created again by an open still under way.
     */
    const fail = (error: unknown) => {
      if (settled) return
      settled = true
      stopWatching()
      req.off("data", count)
      stopReading(ctx, req)
      parser.removeAllListeners()
      parser.on("error", () => {})
      // Not in this call: busboy may be inside its own callback (a file's `limit`) and still use its state.
      setImmediate(() => {
        fileStream?.destroy()
        parser.destroy()
        void spoolClosed.then(() => reject(error))
      })
    }
    const tooLarge = () => fail(httpErrors.tooLarge())

    // Busboy bounds each part, not the whole: a chunked body of endless preamble stops here.
    const count = (chunk: Buffer) => {
      received += chunk.length
      if (received > maxBody) tooLarge()
    }
    req.on("data", count)

    parser.on("field", (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        fail(HttpError.of(422, name, `is too long (maximum is ${multipartLimits.fieldSize} bytes)`))
        return
      }
      if (!Object.hasOwn(fields, name)) fields[name] = value
    })
    parser.on("file", (name, stream, info) => {
      fileStream = stream
      const hash = createHash("sha256")
      let size = 0
      stream.on("limit", tooLarge)
      const spool = createWriteStream(spoolPath, { flags: "wx", mode: 0o600 })
      spoolClosed = new Promise((closed) => spool.once("close", () => closed(undefined)))
      reading = pipeline(
        stream,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length
            hash.update(chunk)
            yield chunk
          }
        },
        spool,
      ).then(
        () => {
          if (stream.truncated) return
          // Opened only when read, so that a request refused before its bytes holds no file open.
          const bytes = (): AsyncIterable<Uint8Array> => ({
            [Symbol.asyncIterator]: () => createReadStream(spoolPath)[Symbol.asyncIterator](),
          })
          file = { field: name, name: info.filename ?? "", size, sha256: hash.digest("hex"), bytes }
        },
        // A refusal destroyed the stream and already answers; anything else (the disk) is a fault.
        (error: unknown) => fail(error),
      )
    })
    parser.on("filesLimit", () => fail(HttpError.of(422, "file", "Only one file may be sent")))
    parser.on("fieldsLimit", () => fail(HttpError.of(400, "body", "Too many form fields")))
    parser.on("partsLimit", () => fail(HttpError.of(400, "body", "Too many form parts")))
    parser.on("error", () => fail(malformedForm()))
    parser.on("close", () => {
      void reading.then(() => {
        if (settled) return
        settled = true
        stopWatching()
        req.off("data", count)
        resolve({ fields, file })
      })
    })
    // A client that goes away before its body is complete gets no answer from the parser: stop here.
    const stopWatching = finished(req, (error) => {
      if (error !== undefined && error !== null) fail(httpErrors.incompleteBody())
    })
    req.pipe(parser)
  })

/**
 * Reads a `multipart/form-data` body into `ctx.state.form`, and leaves in `ctx.state.body` what an
 * `Idempotency-Key` fingerprints: the text fields and the file's name, size and SHA-256 (never
 * its bytes). The file is spooled to a file of its own (mode 0600, in `spoolDirectory`), which is
 * removed when the request ends, answered, refused or cut short. Every refusal answers with
 * `Connection: close` and reads no more of the body until its answer is out; then at most
 * {@link lingeringClose}'s bytes, discarded, so that the client can read the answer before the
 * connection closes. Refused here:
 * - a body that is not a form (415), compressed or with a transfer coding other than `chunked` (415);
 * - a body declared (`Content-Length`) larger than the file limit plus {@link multipartOverheadBytes}:
 *   413 `body` / `Payload too large` before any byte of it is read, and the connection is closed;
 * - an upload past the caller's or the process's share of uploads in progress (`slots`): 429
 *   or 503 with `Retry-After`, before any byte of it is read;
 * - a file that grows past the limit (a file of exactly the limit is accepted), or a body past
 *   that total (chunked): 413 as soon as it does, and the connection is closed right after the
 *   answer (a file's bytes arriving until then are discarded);
 * - a second file (422 `file`), too many fields or parts (400 `body`), a text field over 1 KiB
 *   (422 on its name), a form that cannot be read (400 `body`); these close the connection too,
 *   so no refused body is read to its end.
 *
 * @example
 * declare const upload: AppMiddleware
 * router.post("/attachments", multipartForm({ maxFileBytes: attachmentMaxBytes }), upload)
 */
export const multipartForm =
  (options: MultipartFormOptions): AppMiddleware =>
  async (ctx, next) => {
    const req = ctx.req
    const media = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase()
    if (media !== "multipart/form-data") {
      stopReading(ctx, req)
      throw notMultipart()
    }
    const coding = codingRefusal(req)
    if (coding !== undefined) {
      stopReading(ctx, req)
      throw coding
    }
    const declared = Number(req.headers["content-length"])
    if (Number.isFinite(declared) && declared > options.maxFileBytes + multipartOverheadBytes) {
      stopReading(ctx, req)
      throw httpErrors.tooLarge()
    }
    let release: (() => void) | undefined
    try {
      release = options.slots?.take(ctx)
    } catch (error) {
      stopReading(ctx, req)
      throw error
    }
    const spoolPath = join(options.spoolDirectory ?? tmpdir(), `payments-upload-${randomBytes(12).toString("hex")}`)
    try {
      const form = await readForm(ctx, options.maxFileBytes, spoolPath)
      ctx.state.form = form
      ctx.state.body = {
        fields: form.fields,
        file:
          form.file === undefined
            ? null
            : { field: form.file.field, name: form.file.name, size: form.file.size, sha256: form.file.sha256 },
      }
      await next()
    } finally {
      release?.()
      await rm(spoolPath, { force: true })
    }
  }
