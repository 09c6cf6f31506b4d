import { Schema } from "effect"
import { Text, Timestamp } from "./fields.ts"
import { CompanyId, EntityId, OnboardingPersonId, PersonIdentificationId, WorkspaceId } from "./ids.ts"
import {
  AddressInput,
  CalendarDate,
  CountryAlpha2,
  EmailAddress,
  limitedText,
  OnboardingAddress,
  onboardingFieldMessages,
  optionalField,
  optionalSection,
} from "./onboarding-fields.ts"
import type * as Types from "./types/onboarding-person.ts"
import type { PersonRecord } from "./types/onboarding-person.ts"

export * from "./types/onboarding-person.ts"

/** The roles a person may hold in the business. */
export const personRoles = [
  "beneficial_owner",
  "director",
  "authorized_person",
  "controlling_person",
  "legal_representative",
] as const

/** The kinds of a person's identification. */
export const identificationTypes = ["passport", "drivers_license", "tax_id"] as const

/** The kinds of a tax identification number. */
export const taxIdTypes = ["ssn", "itin"] as const

/** The spec's messages for persons, and ours where it has none. */
export const personMessages = {
  notFound: "Person not found or not accessible in this entity",
  invalidRoles: (roles: ReadonlyArray<string>) => `contains invalid values: ${roles.join(", ")}`,
  roles: "must be an array of roles",
  identificationType: `must be one of: ${identificationTypes.join(", ")}`,
  identificationTypeRequired: "Identification type is required",
  identificationNumberRequired: "Identification number is required",
  taxIdType: `must be one of: ${taxIdTypes.join(", ")}`,
  isPrimary: "must be true or false",
} as const

const personIdentificationFields = {
  id: PersonIdentificationId,
  identification_type: Schema.Literal(...identificationTypes),
  identification_number: Schema.String,
  issuing_country: Schema.NullOr(Schema.String),
  effective_date: Schema.NullOr(Schema.String),
  expiration_date: Schema.NullOr(Schema.String),
  is_primary: Schema.Boolean,
  tax_id_type: Schema.NullOr(Schema.Literal(...taxIdTypes)),
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link PersonIdentification}, named so that declarations refer to it instead of copying it. */
export interface PersonIdentificationSchema extends Schema.Struct<typeof personIdentificationFields> {}
/** One identification of a person; a tax id's number is masked to its last four characters on every read. */
export const PersonIdentification: PersonIdentificationSchema = Schema.Struct(personIdentificationFields).annotations({
  identifier: "PersonIdentification",
})
export type PersonIdentification = Types.PersonIdentification

const onboardingPersonFields = {
  id: OnboardingPersonId,
  first_name: Schema.NullOr(Schema.String),
  middle_name: Schema.NullOr(Schema.String),
  last_name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  phone_number: Schema.NullOr(Schema.String),
  date_of_birth: Schema.NullOr(Schema.String),
  nationality: Schema.NullOr(Schema.String),
  job_title: Schema.NullOr(Schema.String),
  roles: Schema.Array(Schema.Literal(...personRoles)),
  created_at: Timestamp,
  updated_at: Timestamp,
  residential_address: Schema.NullOr(OnboardingAddress),
  identifications: Schema.Array(PersonIdentification),
}

/** The Schema of {@link OnboardingPerson}, named so that declarations refer to it instead of copying it. */
export interface OnboardingPersonSchema extends Schema.Struct<typeof onboardingPersonFields> {}
/** A person of an entity's onboarding (an owner, director, ...) as the API returns it. */
export const OnboardingPerson: OnboardingPersonSchema = Schema.Struct(onboardingPersonFields).annotations({
  identifier: "OnboardingPerson",
})
export type OnboardingPerson = Types.OnboardingPerson

const storedIdentificationFields = {
  ...PersonIdentification.fields,
  identification_number: Schema.NullOr(Schema.String),
  sealed_number: Schema.NullOr(Schema.String),
  number_last4: Schema.NullOr(Schema.String),
}

/** The Schema of {@link StoredIdentification}, named so that declarations refer to it instead of copying it. */
export interface StoredIdentificationSchema extends Schema.Struct<typeof storedIdentificationFields> {}
/**
 * An identification as storage keeps it: a tax id's number is not kept (`identification_number`
 * null) but sealed (`sealed_number`, AES-256-GCM under the server secret's tax-id key, bound to
 * the identification's id) with its last four characters beside it; other numbers are kept as sent.
 */
export const StoredIdentification: StoredIdentificationSchema = Schema.Struct(storedIdentificationFields)
export type StoredIdentification = Types.StoredIdentification

const storedPersonDetailsFields = {
  first_name: Schema.NullOr(Schema.String),
  middle_name: Schema.NullOr(Schema.String),
  last_name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  phone_number: Schema.NullOr(Schema.String),
  date_of_birth: Schema.NullOr(Schema.String),
  nationality: Schema.NullOr(Schema.String),
  job_title: Schema.NullOr(Schema.String),
  roles: Schema.Array(Schema.Literal(...personRoles)),
  residential_address: Schema.NullOr(OnboardingAddress),
  identifications: Schema.Array(StoredIdentification),
}

/** The Schema of {@link StoredPersonDetails}, named so that declarations refer to it instead of copying it. */
export interface StoredPersonDetailsSchema extends Schema.Struct<typeof storedPersonDetailsFields> {}
/** A person's fields as storage keeps them in its `details` JSON text. */
export const StoredPersonDetails: StoredPersonDetailsSchema = Schema.Struct(storedPersonDetailsFields)
export type StoredPersonDetails = Types.StoredPersonDetails

const storedPersonFields = {
  id: OnboardingPersonId,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  entity_id: EntityId,
  details: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link StoredPerson}, named so that declarations refer to it instead of copying it. */
export interface StoredPersonSchema extends Schema.Struct<typeof storedPersonFields> {}
/**
 * A person as storage keeps it: its tenancy, and its fields as JSON text of
 * {@link StoredPersonDetails} (no tax id readable). The storage port's `PersonRecord` is its type.
 */
export const StoredPerson: StoredPersonSchema = Schema.Struct(storedPersonFields)

const Roles = Schema.Array(Text)
  .annotations({ message: () => personMessages.roles })
  .pipe(
    Schema.filter((roles) => {
      const known = new Set<string>(personRoles)
      const invalid = [...new Set(roles.filter((role) => !known.has(role)))]
      return invalid.length === 0 || personMessages.invalidRoles(invalid)
    }),
    Schema.annotations({ description: `any of: ${personRoles.join(", ")}` }),
  )

export const IdentificationInput = Schema.Struct({
  identification_type: Schema.propertySignature(
    Schema.Literal(...identificationTypes).annotations({
      message: () => ({ message: personMessages.identificationType, override: true }),
    }),
  ).annotations({ missingMessage: () => personMessages.identificationTypeRequired }),
  identification_number: Schema.propertySignature(limitedText(64)).annotations({
    missingMessage: () => personMessages.identificationNumberRequired,
  }),
  issuing_country: optionalField(CountryAlpha2),
  effective_date: optionalField(CalendarDate),
  expiration_date: optionalField(CalendarDate),
  is_primary: optionalSection(Schema.Boolean.annotations({ message: () => personMessages.isPrimary })),
  tax_id_type: optionalField(
    Schema.Literal(...taxIdTypes).annotations({
      message: () => ({ message: personMessages.taxIdType, override: true }),
    }),
  ),
}).annotations({ message: () => onboardingFieldMessages.object })
export type IdentificationInput = Types.IdentificationInput

const personInputFields = {
  first_name: optionalField(limitedText(100)),
  middle_name: optionalField(limitedText(100)),
  last_name: optionalField(limitedText(100)),
  email: optionalField(EmailAddress),
  phone_number: optionalField(limitedText(32)),
  date_of_birth: optionalField(CalendarDate),
  nationality: optionalField(CountryAlpha2),
  job_title: optionalField(limitedText(100)),
  roles: optionalSection(Roles),
  residential_address: optionalField(AddressInput),
  identifications: optionalSection(
    Schema.Array(IdentificationInput).annotations({ message: () => onboardingFieldMessages.array }),
  ),
}

/** The Schema of {@link PersonInput}, named so that declarations refer to it instead of copying it. */
export interface PersonInputSchema extends Schema.Struct<typeof personInputFields> {}
/** Body of `POST .../onboarding/persons` and of `PATCH .../persons/{id}`: every field optional. */
export const PersonInput: PersonInputSchema = Schema.Struct(personInputFields).annotations({
  identifier: "PersonInput",
})
export type PersonInput = Types.PersonInput

/** A tax identification number as every read shows it: four asterisks and its last four characters. */
export const maskTaxId = (last4: string): string => `****${last4}`

/** The stored fields of a person. */
export const storedPersonDetails = (row: Pick<PersonRecord, "details">): StoredPersonDetails =>
  Schema.decodeUnknownSync(Schema.parseJson(StoredPersonDetails))(row.details)

/**
 * A stored person as the API returns it: a tax id masked, unless `revealed` gives the number
 * of that identification (the create response echoes the number as submitted).
 */
export const toOnboardingPerson = (
  row: PersonRecord,
  revealed: ReadonlyMap<string, string> = new Map(),
): OnboardingPerson => {
  const { identifications, ...details } = storedPersonDetails(row)
  return {
    id: row.id,
    ...details,
    created_at: row.created_at,
    updated_at: row.updated_at,
    identifications: identifications.map(({ sealed_number: _sealed, number_last4, ...identification }) => ({
      ...identification,
      identification_number:
        revealed.get(identification.id) ?? identification.identification_number ?? maskTaxId(number_last4 ?? ""),
    })),
  }
}
