import { Effect, Either, ParseResult, Schema } from "effect"
import { type FieldError, Invalid } from "../../errors.ts"
import { maxJsonDepth } from "../../rules/json-depth.ts"

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const tooDeep = (value: unknown, depth = 0): boolean => {
  if (depth > maxJsonDepth) return true
  if (Array.isArray(value)) return value.some((v) => tooDeep(v, depth + 1))
  if (isPlainObject(value)) return Object.values(value).some((v) => tooDeep(v, depth + 1))
  return false
}

/** The object without its `undefined` properties, at every depth: an embedder's `{ name: undefined }` means "no name". */
const withoutUndefined = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutUndefined)
  if (!isPlainObject(value)) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, withoutUndefined(v)]),
  )
}

/** Options of {@link decodeBody}. */
export interface DecodeOptions {
  /** Fields whose wrong value is `missing` (a bad request), where the spec's error table says so (entity `country_alpha2`). */
  readonly badRequestFields?: ReadonlyArray<string>
}

const decoders = new WeakMap<Schema.Schema.Any, (body: unknown) => Either.Either<unknown, ParseResult.ParseError>>()

/** The schema's decoder, made once per schema rather than once per request. */
const decoderOf = <A, I>(schema: Schema.Schema<A, I, never>) => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })
    decoders.set(schema, decoder)
  }
  return decoder as (body: unknown) => Either.Either<A, ParseResult.ParseError>
}

/**
 * Decodes a request body with its schema. Every failing field is reported at once, by dotted
 * path, with the first message for it; a missing required field makes the kind `missing`, any other
 * failure `invalid`. A body that is not a JSON object is `missing` on `body`.
 */
export const decodeBody = <A, I>(
  schema: Schema.Schema<A, I, never>,
  body: unknown,
  options: DecodeOptions = {},
): Effect.Effect<A, Invalid> => {
  if (!isPlainObject(body)) return Effect.fail(Invalid.missing("body", "Body must be a JSON object"))
  if (tooDeep(body)) {
    return Effect.fail(Invalid.missing("body", `JSON is nested too deeply (at most ${maxJsonDepth} levels)`))
  }
  const result = decoderOf(schema)(withoutUndefined(body))
  if (Either.isRight(result)) return Effect.succeed(result.right)
  const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
  const seen = new Set<string>()
  const errors: Array<FieldError> = []
  let missing = false
  for (const issue of issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : "body"
    if (seen.has(field)) continue
    seen.add(field)
    missing ||= issue._tag === "Missing" || (options.badRequestFields?.includes(field) ?? false)
    errors.push({ field, message: issue.message })
  }
  return Effect.fail(new Invalid({ kind: missing ? "missing" : "invalid", errors }))
}

/**
 * Decodes query parameters with their schema. A wrong parameter is a bad request (`missing`),
 * whatever the failure, and only the first one in the schema's field order is reported, as a
 * hand-written check that stops at the first would.
 */
export const decodeQuery = <A, I>(schema: Schema.Schema<A, I, never>, query: unknown): Effect.Effect<A, Invalid> =>
  decodeBody(schema, query).pipe(
    Effect.mapError((refusal) => new Invalid({ kind: "missing", errors: refusal.errors.slice(0, 1) })),
  )

/**
 * Decodes a body whose fields sit under one wrapper key (`{ "quote": { ... } }`). Errors name the
 * inner fields bare (`from_profile_id`, not `quote.from_profile_id`), as the spec's error table
 * does; a missing wrapper is `missing` on the wrapper.
 */
export const decodeWrapped = <A, I>(
  wrapper: string,
  schema: Schema.Schema<A, I, never>,
  body: unknown,
  missingMessage: string,
): Effect.Effect<A, Invalid> => {
  if (!isPlainObject(body)) return Effect.fail(Invalid.missing("body", "Body must be a JSON object"))
  const inner = body[wrapper]
  if (inner === undefined || inner === null) return Effect.fail(Invalid.missing(wrapper, missingMessage))
  if (!isPlainObject(inner)) return Effect.fail(Invalid.rule(wrapper, "must be an object"))
  return decodeBody(schema, inner)
}

/**
 * Decodes a body whose fields, all optional, sit under one wrapper key that may itself be left
 * out (`{}`, `{ "payment_batch": {} }` and no body at all decode alike). Errors name the inner
 * fields bare, as {@link decodeWrapped}'s do.
 */
export const decodeOptionallyWrapped = <A, I>(
  wrapper: string,
  schema: Schema.Schema<A, I, never>,
  body: unknown,
): Effect.Effect<A, Invalid> => {
  if (body === undefined || body === null) return decodeBody(schema, {})
  if (!isPlainObject(body)) return Effect.fail(Invalid.missing("body", "Body must be a JSON object"))
  const inner = body[wrapper] ?? {}
  if (!isPlainObject(inner)) return Effect.fail(Invalid.rule(wrapper, "must be an object"))
  return decodeBody(schema, inner)
}
