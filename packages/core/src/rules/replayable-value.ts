import { Either } from "effect"

/**
 * The JSON form of a value a keyed request's transaction returned, so that a retry after a crash
 * gets the very value back. JSON alone would turn a bigint (a `Decimal`'s units) into an error, a
 * `Date` into a string and an `undefined` array item into null, so those travel tagged; a plain object whose own key starts
 * with `$` is wrapped, so no stored value is read as a tag. Anything else that JSON cannot carry
 * faithfully (a function, a class instance, a symbol, a non-finite number) is refused: replaying
 * it would hand the retry something other than what the first request saw.
 */
type Encoded = null | boolean | number | string | ReadonlyArray<Encoded> | { readonly [key: string]: Encoded }

/** Why a value cannot be kept for replay, with the path to the offending part. */
export interface NotReplayable {
  readonly path: string
  readonly reason: string
}

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

const encode = (value: unknown, path: string): Either.Either<Encoded, NotReplayable> => {
  switch (typeof value) {
    case "string":
    case "boolean":
      return Either.right(value)
    case "number":
      return Number.isFinite(value) ? Either.right(value) : Either.left({ path, reason: `number ${value}` })
    case "bigint":
      return Either.right({ $bigint: value.toString() })
    case "undefined":
      return Either.right({ $undefined: true })
    case "object": {
      if (value === null) return Either.right(null)
      if (Array.isArray(value)) {
        const items: Array<Encoded> = []
        for (const [index, item] of value.entries()) {
          const encoded = encode(item, `${path}[${index}]`)
          if (Either.isLeft(encoded)) return encoded
          items.push(encoded.right)
        }
        return Either.right(items)
      }
      if (value instanceof Date) {
        return Number.isNaN(value.getTime())
          ? Either.left({ path, reason: "an invalid Date" })
          : Either.right({ $date: value.toISOString() })
      }
      if (!isPlainObject(value)) return Either.left({ path, reason: `instance of ${value.constructor?.name ?? "?"}` })
      const entries: Array<[string, Encoded]> = []
      let escaped = false
      for (const [key, item] of Object.entries(value)) {
        // An absent optional field and one set to undefined read alike to every caller.
        if (item === undefined) continue
        const encoded = encode(item, `${path}.${key}`)
        if (Either.isLeft(encoded)) return encoded
        entries.push([key, encoded.right])
        if (key.startsWith("$")) escaped = true
      }
      // fromEntries defines each key as its own property: an assignment of `__proto__` would not.
      const fields = Object.fromEntries(entries)
      return Either.right(escaped ? { $object: fields } : fields)
    }
    default:
      return Either.left({ path, reason: typeof value })
  }
}

const decode = (value: Encoded): unknown => {
  if (value === null || typeof value !== "object") return value
  if (Array.isArray(value)) return value.map(decode)
  const fields = value as { readonly [key: string]: Encoded }
  if (typeof fields.$bigint === "string") return BigInt(fields.$bigint)
  if (typeof fields.$date === "string") return new Date(fields.$date)
  if (fields.$undefined === true) return undefined
  const plain = (fields.$object ?? fields) as { readonly [key: string]: Encoded }
  return Object.fromEntries(Object.entries(plain).map(([key, item]) => [key, decode(item)]))
}

/**
 * The value as JSON text that {@link replayedValue} turns back into an equal value, or why not.
 *
 * @example
 * replayableText({ units: 1050n, scale: 2 }) // Either.right('{"units":{"$bigint":"1050"},"scale":2}')
 */
export const replayableText = (value: unknown): Either.Either<string, NotReplayable> =>
  Either.map(encode(value, "result"), (encoded) => JSON.stringify(encoded))

/**
 * The value {@link replayableText} kept, as it was.
 *
 * @example
 * replayedValue('{"units":{"$bigint":"1050"},"scale":2}') // { units: 1050n, scale: 2 }
 */
export const replayedValue = (text: string): unknown => decode(JSON.parse(text) as Encoded)
