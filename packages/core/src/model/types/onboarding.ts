import type { CompanyId, EntityId, OnboardingId, WorkspaceId } from "./ids.ts"
import type { AddressInput, OnboardingAddress } from "./onboarding-fields.ts"
import type { OnboardingPerson } from "./onboarding-person.ts"

// The types of `model/onboarding.ts`, written out (docs/decisions.md, "Public types").

/** The statuses of an entity's onboarding, following its multi-currency feature (DECISIONS "Onboarding status"). */
export const onboardingStatuses = ["draft", "submitted", "approved", "action_required"] as const
export type OnboardingStatus = (typeof onboardingStatuses)[number]

/** One business identifier (EIN, VAT number, registration number, SSN). */
export interface BusinessIdentifier {
  readonly id: string
  readonly identifier_type: "ssn" | "ein" | "vat" | "brn"
  readonly identifier_number: string
  readonly country_alpha2: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** The business details of an onboarding with its addresses and identifiers. */
export interface BusinessDetails {
  readonly business_name: string | null
  readonly business_name_trading: string | null
  readonly business_structure: string | null
  readonly business_start_date: string | null
  readonly industry_category_code: string | null
  readonly description_of_goods_services: string | null
  readonly website_url: string | null
  readonly contact_phone: string | null
  readonly state_of_incorporation: string | null
  readonly id: string
  readonly created_at: string
  readonly updated_at: string
  readonly business_address: OnboardingAddress | null
  readonly registration_address: OnboardingAddress | null
  readonly business_identifiers: ReadonlyArray<BusinessIdentifier>
}

/** An entity's onboarding as the API returns it, with the entity's persons. */
export interface EntityOnboarding {
  readonly id: OnboardingId
  readonly status: OnboardingStatus
  readonly submitted_at: string | null
  readonly approved_at: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly business_details: BusinessDetails
  readonly persons: ReadonlyArray<OnboardingPerson>
  readonly primary_contact_email: string | null
  readonly primary_contact_mobile: string | null
  /** Calling code with plus sign. */
  readonly primary_contact_mobile_country_code: string | null
}

/** An onboarding as storage keeps it. */
export interface OnboardingRecord {
  readonly id: OnboardingId
  readonly workspace_id: WorkspaceId
  readonly company_id: CompanyId
  readonly entity_id: EntityId
  readonly status: OnboardingStatus
  readonly submitted_at: string | null
  readonly approved_at: string | null
  readonly primary_contact_email: string | null
  readonly primary_contact_mobile: string | null
  readonly primary_contact_mobile_country_code: string | null
  readonly business_details: string
  readonly created_at: string
  readonly updated_at: string
}

/** Body of `PATCH /api/v1/companies/{cid}/entities/{eid}/onboarding`: every section optional. */
export interface OnboardingUpdate {
  readonly business_details?: {
    readonly business_name?: string | null
    readonly business_name_trading?: string | null
    readonly business_structure?: string | null
    readonly business_start_date?: string | null
    readonly industry_category_code?: string | null
    readonly description_of_goods_services?: string | null
    readonly website_url?: string | null
    readonly contact_phone?: string | null
    readonly state_of_incorporation?: string | null
  }
  readonly business_address?: AddressInput
  readonly registration_address?: AddressInput
  readonly business_identifiers?: ReadonlyArray<{
    readonly identifier_type: "ssn" | "ein" | "vat" | "brn"
    readonly identifier_number: string
    readonly country_alpha2?: string | null
  }>
  readonly primary_contact?: {
    readonly email?: string | null
    readonly mobile?: string | null
    readonly mobile_country_code?: string | null
  }
}

/** Body of an onboarding's update, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface OnboardingUpdateBody {
  readonly business_address?: AddressInput
  readonly registration_address?: AddressInput
  readonly business_identifiers?: ReadonlyArray<{
    readonly identifier_type: "ssn" | "ein" | "vat" | "brn"
    readonly identifier_number: string
    readonly country_alpha2?: string | null
  }>
  readonly business_details?: {
    readonly business_name?: string | null
    readonly business_name_trading?: string | null
    readonly business_structure?: string | null
    readonly business_start_date?: string | null
    readonly industry_category_code?: string | null
    readonly description_of_goods_services?: string | null
    readonly website_url?: string | null
    readonly contact_phone?: string | null
    readonly state_of_incorporation?: string | null
  }
  readonly primary_contact?: {
    readonly email?: string | null
    readonly mobile?: string | null
    readonly mobile_country_code?: string | null
  }
}
