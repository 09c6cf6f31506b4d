import { types } from "node:util"
import { isDomainError } from "@payments-engine/core"
import { HttpError } from "./http-error.ts"

/**
 * What the logs say about an error: allow-listed fields only. Errors carry whatever their authors
 * attached, and some carry request data: Node's HTTP parser puts the raw request (headers, bearer
 * token, body) in `rawPacket`, and V8 quotes the input in JSON.parse messages. So no error object
 * is ever handed to pino as it is.
 */
export interface ErrorLogFields {
  /** The class: the domain error's tag, else the error's name. */
  readonly type: string
  /** A machine code such as `HPE_INVALID_CHUNK_SIZE`, `ECONNRESET` or a SQLSTATE. */
  readonly code?: string
  /** The HTTP status an error names for itself. */
  readonly status?: number
  /** A domain error's kind. */
  readonly kind?: string
  /** Only for the binding's and the core's own errors, whose messages are written by us. */
  readonly message?: string
  /** Where it was thrown: the stack's frames, without the message that heads it. */
  readonly stack?: string
  readonly cause?: ErrorLogFields
}

const safeName = /^[A-Za-z0-9_$.]{1,64}$/
// Codes are constants such as HPE_INVALID_CHUNK_SIZE, ECONNRESET, SQLITE_BUSY or 23505; lower case is
// left out, so a token or secret someone put in `code` does not pass as one.
const safeCode = /^[A-Z0-9_]{1,64}$/
const maxFrames = 30
const maxCauses = 3

const isOwnError = (error: object): boolean => error instanceof HttpError || isDomainError(error)

const typeOf = (error: object): string => {
  const { _tag, name } = error as { _tag?: unknown; name?: unknown }
  if (typeof _tag === "string" && safeName.test(_tag)) return _tag
  if (typeof name === "string" && safeName.test(name)) return name
  const constructorName = error.constructor?.name
  return typeof constructorName === "string" && safeName.test(constructorName) ? constructorName : "object"
}

const framesOf = (error: object): string | undefined => {
  const { stack } = error as { stack?: unknown }
  if (typeof stack !== "string") return undefined
  const heading = String(error)
  const afterHeading = stack.startsWith(heading) ? stack.slice(heading.length) : stack
  const frames = afterHeading
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, maxFrames)
  return frames.length === 0 ? undefined : frames.join("\n")
}

const fieldsOf = (error: unknown, causes: number): ErrorLogFields => {
  if (typeof error !== "object" || error === null) return { type: typeof error }
  const { code, status, statusCode, kind, cause } = error as Record<string, unknown>
  const httpStatus = typeof status === "number" ? status : statusCode
  const stack = framesOf(error)
  return {
    type: typeOf(error),
    ...(typeof code === "string" && safeCode.test(code) ? { code } : {}),
    ...(typeof code === "number" && Number.isInteger(code) ? { code: String(code) } : {}),
    ...(typeof httpStatus === "number" && Number.isInteger(httpStatus) ? { status: httpStatus } : {}),
    ...(isDomainError(error) && typeof kind === "string" ? { kind } : {}),
    ...(isOwnError(error) ? { message: (error as Error).message } : {}),
    ...(stack === undefined ? {} : { stack }),
    ...(cause !== undefined && causes < maxCauses ? { cause: fieldsOf(cause, causes + 1) } : {}),
  }
}

/**
 * The allow-listed fields of an error, to log under `err`.
 *
 * @example
 * declare const request_id: string, error: unknown
 * logger.error({ request_id, err: errorLogFields(error) }, "unexpected error")
 */
export const errorLogFields = (error: unknown): ErrorLogFields => fieldsOf(error, 0)

const isError = (value: unknown): value is Error => value instanceof Error || types.isNativeError(value)

/**
 * The first argument of a pino call with every error in it reduced to {@link errorLogFields}: a
 * bare error becomes `{ err }`, and an error under any key of an object is replaced. Pino would
 * otherwise copy the error's properties, and take its message as the line's `msg` when none is given.
 *
 * @example
 * withErrorsAllowListed(new Error("x")) // { err: { type: "Error", stack: "    at ..." } }
 */
export const withErrorsAllowListed = (value: unknown): unknown => {
  if (isError(value)) return { err: errorLogFields(value) }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value
  if (!Object.values(value).some(isError)) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, isError(field) ? errorLogFields(field) : field]),
  )
}
