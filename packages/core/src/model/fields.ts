import { Schema } from "effect"
import { isCountryAlpha2, isCurrencyCode } from "./iso-codes.ts"

/**
 * A string field whose wrong type reads "must be a string". NUL characters are refused: no
 * database we support can store them.
 */
export const Text = Schema.String.annotations({ message: () => "must be a string" }).pipe(
  Schema.filter((s) => !s.includes("\u0000"), { message: () => "must not contain the NUL character (U+0000)" }),
)

/** A string that is not empty once trimmed; blank reads "can't be blank". */
export const NonBlank = Text.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "can't be blank" }),
  Schema.filter((s) => s.length <= 255, { message: () => "is too long (maximum is 255 characters)" }),
)

/** An ISO 3166-1 alpha-2 country code; `message` is what a wrong one reads. */
export const countryCode = (message: string) =>
  Text.pipe(
    Schema.filter(isCountryAlpha2, { message: () => message }),
    Schema.annotations({ description: "ISO 3166-1 alpha-2 country code, upper case", examples: ["US"] }),
  )

/** An ISO 4217 currency code; `message` is what a wrong one reads. */
export const currencyCode = (message: string) =>
  Text.pipe(
    Schema.filter(isCurrencyCode, { message: () => message }),
    Schema.annotations({ description: "ISO 4217 currency code, upper case", examples: ["USD"] }),
  )

/** A timestamp on the wire: ISO 8601 in UTC with milliseconds. */
export const Timestamp = Schema.String.annotations({
  description: "ISO 8601 timestamp",
  examples: ["2026-01-01T00:00:00.000Z"],
})

/** A required property whose absence reads `message` (kind `missing`). */
export const required = <A, I, R>(schema: Schema.Schema<A, I, R>, message: string) =>
  Schema.propertySignature(schema).annotations({ missingMessage: () => message })
