import { Schema } from "effect"
import type { FeatureStatus } from "./feature.ts"
import { Text, Timestamp } from "./fields.ts"
import { CompanyId, EntityId, OnboardingId, WorkspaceId } from "./ids.ts"
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
  WebUrl,
} from "./onboarding-fields.ts"
import { type OnboardingPerson, OnboardingPerson as PersonSchema } from "./onboarding-person.ts"
import type * as Types from "./types/onboarding.ts"
import type { OnboardingRecord, OnboardingStatus } from "./types/onboarding.ts"
import { onboardingStatuses } from "./types/onboarding.ts"

export * from "./types/onboarding.ts"

/** The kinds of a business identifier. */
export const identifierTypes = ["ein", "vat", "brn", "ssn"] as const

/** The spec's messages for onboarding, and ours where it has none. */
export const onboardingMessages = {
  updateIntegration: "Cannot update onboarding for entity with active payment integration",
  modifyIntegration: "Cannot modify onboarding for entity with active payment integration",
  identifierType: `must be one of: ${identifierTypes.join(", ")}`,
  identifierTypeRequired: "Identifier type is required",
  identifierNumberRequired: "Identifier number is required",
  ...onboardingFieldMessages,
} as const

const businessIdentifierFields = {
  id: Schema.String,
  identifier_type: Schema.Literal(...identifierTypes),
  identifier_number: Schema.String,
  country_alpha2: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link BusinessIdentifier}, named so that declarations refer to it instead of copying it. */
export interface BusinessIdentifierSchema extends Schema.Struct<typeof businessIdentifierFields> {}
/** One business identifier (EIN, VAT number, registration number, SSN). */
export const BusinessIdentifier: BusinessIdentifierSchema = Schema.Struct(businessIdentifierFields).annotations({
  identifier: "BusinessIdentifier",
})
export type BusinessIdentifier = Types.BusinessIdentifier

/** The business-details fields a PATCH may set, each nullable. */
const businessDetailFields = {
  business_name: Schema.NullOr(Schema.String),
  business_name_trading: Schema.NullOr(Schema.String),
  business_structure: Schema.NullOr(Schema.String),
  business_start_date: Schema.NullOr(Schema.String),
  industry_category_code: Schema.NullOr(Schema.String),
  description_of_goods_services: Schema.NullOr(Schema.String),
  website_url: Schema.NullOr(Schema.String),
  contact_phone: Schema.NullOr(Schema.String),
  state_of_incorporation: Schema.NullOr(Schema.String),
}

const businessDetailsFields = {
  id: Schema.String,
  ...businessDetailFields,
  created_at: Timestamp,
  updated_at: Timestamp,
  business_address: Schema.NullOr(OnboardingAddress),
  registration_address: Schema.NullOr(OnboardingAddress),
  business_identifiers: Schema.Array(BusinessIdentifier),
}

/** The Schema of {@link BusinessDetails}, named so that declarations refer to it instead of copying it. */
export interface BusinessDetailsSchema extends Schema.Struct<typeof businessDetailsFields> {}
/** The business details of an onboarding with its addresses and identifiers. */
export const BusinessDetails: BusinessDetailsSchema = Schema.Struct(businessDetailsFields).annotations({
  identifier: "BusinessDetails",
})
export type BusinessDetails = Types.BusinessDetails

const entityOnboardingFields = {
  id: OnboardingId,
  status: Schema.Literal(...onboardingStatuses),
  submitted_at: Schema.NullOr(Timestamp),
  approved_at: Schema.NullOr(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  business_details: BusinessDetails,
  persons: Schema.Array(PersonSchema),
  primary_contact_email: Schema.NullOr(Schema.String),
  primary_contact_mobile: Schema.NullOr(Schema.String),
  primary_contact_mobile_country_code: Schema.NullOr(
    Schema.String.annotations({ description: "calling code with plus sign", examples: ["+1"] }),
  ),
}

/** The Schema of {@link EntityOnboarding}, named so that declarations refer to it instead of copying it. */
export interface EntityOnboardingSchema extends Schema.Struct<typeof entityOnboardingFields> {}
/** An entity's onboarding as the API returns it, with the entity's persons. */
export const EntityOnboarding: EntityOnboardingSchema = Schema.Struct(entityOnboardingFields).annotations({
  identifier: "EntityOnboarding",
})
export type EntityOnboarding = Types.EntityOnboarding

const storedOnboardingFields = {
  id: OnboardingId,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  entity_id: EntityId,
  status: Schema.Literal(...onboardingStatuses),
  submitted_at: Schema.NullOr(Timestamp),
  approved_at: Schema.NullOr(Timestamp),
  primary_contact_email: Schema.NullOr(Schema.String),
  primary_contact_mobile: Schema.NullOr(Schema.String),
  primary_contact_mobile_country_code: Schema.NullOr(Schema.String),
  business_details: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link StoredOnboarding}, named so that declarations refer to it instead of copying it. */
export interface StoredOnboardingSchema extends Schema.Struct<typeof storedOnboardingFields> {}
/**
 * An onboarding as storage keeps it: one row per entity, its business details (addresses and
 * identifiers included) as JSON text of {@link BusinessDetails}; the persons are rows of their
 * own. The storage port's `OnboardingRecord` is its type.
 */
export const StoredOnboarding: StoredOnboardingSchema = Schema.Struct(storedOnboardingFields)

const BusinessIdentifierInput = Schema.Struct({
  identifier_type: Schema.propertySignature(
    Schema.Literal(...identifierTypes).annotations({
      message: () => ({ message: onboardingMessages.identifierType, override: true }),
    }),
  ).annotations({ missingMessage: () => onboardingMessages.identifierTypeRequired }),
  identifier_number: Schema.propertySignature(limitedText(64)).annotations({
    missingMessage: () => onboardingMessages.identifierNumberRequired,
  }),
  country_alpha2: optionalField(CountryAlpha2),
}).annotations({ message: () => onboardingMessages.object })

const onboardingUpdateFields = {
  business_details: optionalSection(
    Schema.Struct({
      business_name: optionalField(limitedText(255)),
      business_name_trading: optionalField(limitedText(255)),
      business_structure: optionalField(limitedText(100)),
      business_start_date: optionalField(CalendarDate),
      industry_category_code: optionalField(limitedText(32)),
      description_of_goods_services: optionalField(limitedText(2000)),
      website_url: optionalField(WebUrl),
      contact_phone: optionalField(limitedText(32)),
      state_of_incorporation: optionalField(limitedText(100)),
    }).annotations({ message: () => onboardingMessages.object }),
  ),
  business_address: optionalSection(AddressInput),
  registration_address: optionalSection(AddressInput),
  business_identifiers: optionalSection(
    Schema.Array(BusinessIdentifierInput).annotations({ message: () => onboardingMessages.array }),
  ),
  primary_contact: optionalSection(
    Schema.Struct({
      email: optionalField(EmailAddress),
      mobile: optionalField(limitedText(32)),
      mobile_country_code: optionalField(
        Text.pipe(Schema.filter((s) => /^\+\d{1,4}$/.test(s), { message: () => "must be a calling code such as +1" })),
      ),
    }).annotations({ message: () => onboardingMessages.object }),
  ),
}

/** The Schema of {@link OnboardingUpdate}, named so that declarations refer to it instead of copying it. */
export interface OnboardingUpdateSchema extends Schema.Struct<typeof onboardingUpdateFields> {}
/** Body of `PATCH /api/v1/companies/{cid}/entities/{eid}/onboarding`: every section optional. */
export const OnboardingUpdate: OnboardingUpdateSchema = Schema.Struct(onboardingUpdateFields).annotations({
  identifier: "OnboardingUpdate",
})
export type OnboardingUpdate = Types.OnboardingUpdate

/** The stored business details of an onboarding. */
export const storedBusinessDetails = (row: Pick<OnboardingRecord, "business_details">): BusinessDetails =>
  Schema.decodeUnknownSync(Schema.parseJson(BusinessDetails))(row.business_details)

/** A stored onboarding as the API returns it, with the persons of its entity. */
export const toEntityOnboarding = (
  row: OnboardingRecord,
  persons: ReadonlyArray<OnboardingPerson>,
): EntityOnboarding => ({
  id: row.id,
  status: row.status,
  submitted_at: row.submitted_at,
  approved_at: row.approved_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
  business_details: storedBusinessDetails(row),
  persons,
  primary_contact_email: row.primary_contact_email,
  primary_contact_mobile: row.primary_contact_mobile,
  primary_contact_mobile_country_code: row.primary_contact_mobile_country_code,
})

/**
 * The onboarding status of each feature status (DECISIONS "Onboarding status"): draft while the
 * feature is CREATED, then submitted, approved (ACTIVE) or action_required.
 */
export const onboardingStatusOfFeature: Readonly<Record<FeatureStatus, OnboardingStatus>> = {
  CREATED: "draft",
  SUBMITTED: "submitted",
  ACTIVE: "approved",
  ACTION_REQUIRED: "action_required",
}
