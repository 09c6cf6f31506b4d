import { Schema } from "effect"
import { Text, Timestamp } from "./fields.ts"
import { OnboardingAddressId } from "./ids.ts"
import { isCountryAlpha2 } from "./iso-codes.ts"
import type * as Types from "./types/onboarding-fields.ts"
import { addressTypes } from "./types/onboarding-fields.ts"

export * from "./types/onboarding-fields.ts"

/*
 * Field kinds shared by the onboarding and its persons: bounded text, calendar dates, country
 * codes, URLs, e-mail addresses and addresses.
 */

/** Messages of the shared onboarding fields. */
export const onboardingFieldMessages = {
  tooLong: (maximum: number) => `is too long (maximum is ${maximum} characters)`,
  date: "must be a date in the format YYYY-MM-DD",
  country: "must be an ISO 3166-1 alpha-2 country code",
  url: "must be an http or https URL",
  email: "must be a valid e-mail address",
  object: "must be an object",
  array: "must be an array",
} as const

/** A field that may be sent, null to clear it. */
export const optionalField = <A, I>(schema: Schema.Schema<A, I, never>) =>
  Schema.optionalWith(Schema.NullOr(schema), { exact: true })

/**
 * A section or list that may be left out. Exact (never `undefined`, which the body decoder
 * drops), so an error inside it names only the inner field.
 */
export const optionalSection = <A, I>(schema: Schema.Schema<A, I, never>) =>
  Schema.optionalWith(schema, { exact: true })

/** Text of at most `maximum` characters. */
export const limitedText = (maximum: number) =>
  Text.pipe(Schema.filter((s) => s.length <= maximum, { message: () => onboardingFieldMessages.tooLong(maximum) }))

const isCalendarDate = (text: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** A calendar date `YYYY-MM-DD` that exists (no 2025-02-30). */
export const CalendarDate = Text.pipe(
  Schema.filter(isCalendarDate, { message: () => onboardingFieldMessages.date }),
  Schema.annotations({ description: "YYYY-MM-DD", examples: ["2020-01-31"] }),
)

/** An ISO 3166-1 alpha-2 country code. */
export const CountryAlpha2 = Text.pipe(
  Schema.filter(isCountryAlpha2, { message: () => onboardingFieldMessages.country }),
  Schema.annotations({ description: "ISO 3166-1 alpha-2 country code, upper case", examples: ["US"] }),
)

const isWebUrl = (text: string) => {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0
}

/** An http or https URL. */
export const WebUrl = limitedText(2048).pipe(Schema.filter(isWebUrl, { message: () => onboardingFieldMessages.url }))

/** An e-mail address: one `@`, no spaces, a dotted domain. */
export const EmailAddress = limitedText(254).pipe(
  Schema.filter((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), { message: () => onboardingFieldMessages.email }),
)

const onboardingAddressFields = {
  id: OnboardingAddressId,
  address_type: Schema.Literal(...addressTypes),
  line1: Schema.NullOr(Schema.String),
  line2: Schema.NullOr(Schema.String),
  city: Schema.NullOr(Schema.String),
  state: Schema.NullOr(Schema.String),
  postal_code: Schema.NullOr(Schema.String),
  country_alpha2: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link OnboardingAddress}, named so that declarations refer to it instead of copying it. */
export interface OnboardingAddressSchema extends Schema.Struct<typeof onboardingAddressFields> {}
/** An onboarding address as the API returns it; unset fields are null. */
export const OnboardingAddress: OnboardingAddressSchema = Schema.Struct(onboardingAddressFields).annotations({
  identifier: "OnboardingAddress",
})
export type OnboardingAddress = Types.OnboardingAddress

const addressInputFields = {
  line1: optionalField(limitedText(255)),
  line2: optionalField(limitedText(255)),
  city: optionalField(limitedText(255)),
  state: optionalField(limitedText(255)),
  postal_code: optionalField(limitedText(32)),
  country_alpha2: optionalField(CountryAlpha2),
}

/** The Schema of {@link AddressInput}, named so that declarations refer to it instead of copying it. */
export interface AddressInputSchema extends Schema.Struct<typeof addressInputFields> {}
/** An address in a request body (`line1` ... `country_alpha2`), each field optional. */
export const AddressInput: AddressInputSchema = Schema.Struct(addressInputFields).annotations({
  identifier: "OnboardingAddressInput",
  message: () => onboardingFieldMessages.object,
})
export type AddressInput = Types.AddressInput
