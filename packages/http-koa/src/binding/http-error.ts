import type { DomainError, ErrorKind, FieldError } from "@payments-engine/core"

/**
 * The HTTP status of each kind of domain error: the one place the binding decides it, with the
 * codes of the spec's error section ("400 malformed or missing input ... 422 validation failed
 * ... 500 server error (including payment-provider FX failures)").
 *
 * @example
 * declare const error: DomainError
 * ctx.status = statusOfKind[error.kind]
 */
export const statusOfKind: { readonly [K in ErrorKind]: number } = {
  missing: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid: 422,
  rate_limited: 429,
  provider_failure: 500,
}

/**
 * The HTTP status a domain error is answered with.
 *
 * @example
 * httpStatusOf(new NotFound({ field: "id", message: "Company not found" })) // 404
 */
export const httpStatusOf = (error: DomainError): number => statusOfKind[error.kind]

/**
 * A failure the HTTP binding itself detects (unknown route, unreadable body, bad bearer token),
 * rendered exactly like a domain error: `{ errors: [{ field, message }] }` with `status`.
 *
 * @example
 * throw HttpError.of(404, "path", "Not found")
 */
export class HttpError extends Error {
  override readonly name = "HttpError"

  constructor(
    readonly status: number,
    readonly errors: ReadonlyArray<FieldError>,
  ) {
    super(errors.map((e) => `${e.field}: ${e.message}`).join("; "))
  }

  /** One error on one field. */
  static of(status: number, field: string, message: string): HttpError {
    return new HttpError(status, [{ field, message }])
  }
}

/**
 * The binding's own errors, with the messages of DECISIONS "Errors, limits, HTTP".
 *
 * @example
 * throw httpErrors.notFound()
 */
export const httpErrors = {
  /** 404 `path` / `Not found`: no route for this method and path. */
  notFound: () => HttpError.of(404, "path", "Not found"),
  /** 400 `body` / `Malformed JSON`. */
  malformedJson: () => HttpError.of(400, "body", "Malformed JSON"),
  /** 400 `body`: arrays and objects nested deeper than the binding accepts. */
  tooDeep: (maxDepth: number) => HttpError.of(400, "body", `JSON is nested too deeply (at most ${maxDepth} levels)`),
  /** 422 on a field whose text holds U+0000, which no database text column takes everywhere. */
  nulCharacter: (field: string) => HttpError.of(422, field, "must not contain the NUL character (U+0000)"),
  /** 415 `body`: a body that is not JSON where JSON is expected. */
  notJson: () => HttpError.of(415, "body", "Content-Type must be application/json"),
  /** 415 `body`: a compressed body (only `identity` is accepted). */
  encodedBody: () => HttpError.of(415, "body", "Content-Encoding must be identity"),
  /** 415 `body`: a transfer coding other than plain `chunked`, such as `gzip, chunked`. */
  transferEncodedBody: () => HttpError.of(415, "body", "Transfer-Encoding must be chunked"),
  /** 413 `body` / `Payload too large`. */
  tooLarge: () => HttpError.of(413, "body", "Payload too large"),
  /** 400 `body`: the client stopped sending before the body was complete. */
  incompleteBody: () => HttpError.of(400, "body", "Request body was not received completely"),
  /** 429 `base`: the caller's rate limit is spent for this window (DECISIONS "Rate limits"). */
  rateLimited: () => HttpError.of(429, "base", "Rate limit exceeded. Please try again later."),
  /** 401 `token` / `Missing or invalid token`. */
  invalidToken: () => HttpError.of(401, "token", "Missing or invalid token"),
} as const
