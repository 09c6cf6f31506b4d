import { Effect, Either, ParseResult, Schema } from "effect"
import { type FieldError, Invalid } from "../../errors.ts"
import { maxJsonDepth } from "../../rules/json-depth.ts"

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** What {@link withoutUndefined} answers for a value nested deeper than {@link maxJsonDepth}. */
const tooDeep: unique symbol = Symbol("too deep")

/**
 * The value without its `undefined` properties, at every depth (an embedder's `{ name: undefined }`
 * means "no name"), or {@link tooDeep} when it nests deeper than {@link maxJsonDepth}. One walk for
 * both, bounded by the depth, and a copy only of the objects that had an `undefined` property or
 * hold one that did: a parsed JSON body has none and comes back as it was.
 */
const withoutUndefined = (value: unknown, depth = 0): unknown => {
  if (depth > maxJsonDepth) return tooDeep
  if (Array.isArray(value)) {
    let copy: Array<unknown> | undefined
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i]
      const kept = withoutUndefined(item, depth + 1)
      if (kept === tooDeep) return tooDeep
      if (copy === undefined && kept !== item) copy = value.slice(0, i)
      copy?.push(kept)
    }
    return copy ?? value
  }
  if (!isPlainObject(value)) return value
  let kept: Array<[string, unknown]> | undefined
  const entries = Object.entries(value)
  for (let i = 0; i < entries.length; i += 1) {
    const [key, item] = entries[i] as [string, unknown]
    const keptItem = withoutUndefined(item, depth + 1)
    if (keptItem === tooDeep) return tooDeep
    if (kept === undefined && (item === undefined || keptItem !== item)) kept = entries.slice(0, i)
    if (kept !== undefined && item !== undefined) kept.push([key, keptItem])
  }
  // Built from entries, as JSON.parse builds its objects: a `__proto__` key stays a key.
  return kept === undefined ? value : Object.fromEntries(kept)
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
  const given = withoutUndefined(body)
  if (given === tooDeep) {
    return Effect.fail(Invalid.missing("body", `JSON is nested too deeply (at most ${maxJsonDepth} levels)`))
  }
  const result = decoderOf(schema)(given)
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
