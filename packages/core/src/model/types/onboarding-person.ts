import type { CompanyId, EntityId, OnboardingPersonId, PersonIdentificationId, WorkspaceId } from "./ids.ts"
import type { AddressInput, OnboardingAddress } from "./onboarding-fields.ts"

// The types of `model/onboarding-person.ts`, written out (docs/decisions.md, "Public types").

/** One identification of a person; a tax id's number is masked to its last four characters on every read. */
export interface PersonIdentification {
  readonly id: PersonIdentificationId
  readonly identification_type: "passport" | "drivers_license" | "tax_id"
  readonly identification_number: string
  readonly issuing_country: string | null
  readonly effective_date: string | null
  readonly expiration_date: string | null
  readonly is_primary: boolean
  readonly tax_id_type: "ssn" | "itin" | null
  readonly created_at: string
  readonly updated_at: string
}

/** A person of an entity's onboarding (an owner, director, ...) as the API returns it. */
export interface OnboardingPerson {
  readonly id: OnboardingPersonId
  readonly first_name: string | null
  readonly middle_name: string | null
  readonly last_name: string | null
  readonly email: string | null
  readonly phone_number: string | null
  readonly date_of_birth: string | null
  readonly nationality: string | null
  readonly job_title: string | null
  readonly roles: ReadonlyArray<
    "beneficial_owner" | "director" | "authorized_person" | "controlling_person" | "legal_representative"
  >
  readonly created_at: string
  readonly updated_at: string
  readonly residential_address: OnboardingAddress | null
  readonly identifications: ReadonlyArray<PersonIdentification>
}

/**
 * An identification as storage keeps it: a tax id's number is not kept (`identification_number`
 * null) but sealed (`sealed_number`, AES-256-GCM under the server secret's tax-id key, bound to
 * the identification's id) with its last four characters beside it; other numbers are kept as sent.
 */
export interface StoredIdentification {
  readonly id: PersonIdentificationId
  readonly identification_type: "passport" | "drivers_license" | "tax_id"
  readonly issuing_country: string | null
  readonly effective_date: string | null
  readonly expiration_date: string | null
  readonly is_primary: boolean
  readonly tax_id_type: "ssn" | "itin" | null
  readonly created_at: string
  readonly updated_at: string
  readonly identification_number: string | null
  readonly sealed_number: string | null
  readonly number_last4: string | null
}

/** A person's fields as storage keeps them in its `details` JSON text. */
export interface StoredPersonDetails {
  readonly first_name: string | null
  readonly middle_name: string | null
  readonly last_name: string | null
  readonly email: string | null
  readonly phone_number: string | null
  readonly date_of_birth: string | null
  readonly nationality: string | null
  readonly job_title: string | null
  readonly roles: ReadonlyArray<
    "beneficial_owner" | "director" | "authorized_person" | "controlling_person" | "legal_representative"
  >
  readonly residential_address: OnboardingAddress | null
  readonly identifications: ReadonlyArray<StoredIdentification>
}

/** An onboarding person as storage keeps it. */
export interface PersonRecord {
  readonly id: OnboardingPersonId
  readonly workspace_id: WorkspaceId
  readonly company_id: CompanyId
  readonly entity_id: EntityId
  readonly details: string
  readonly created_at: string
  readonly updated_at: string
}

export interface IdentificationInput {
  readonly identification_type: "passport" | "drivers_license" | "tax_id"
  readonly identification_number: string
  readonly issuing_country?: string | null
  readonly effective_date?: string | null
  readonly expiration_date?: string | null
  readonly is_primary?: boolean
  readonly tax_id_type?: "ssn" | "itin" | null
}

/** Body of `POST .../onboarding/persons` and of `PATCH .../persons/{id}`: every field optional. */
export interface PersonInput {
  readonly first_name?: string | null
  readonly middle_name?: string | null
  readonly last_name?: string | null
  readonly email?: string | null
  readonly phone_number?: string | null
  readonly date_of_birth?: string | null
  readonly nationality?: string | null
  readonly job_title?: string | null
  readonly roles?: ReadonlyArray<string>
  readonly residential_address?: AddressInput | null
  readonly identifications?: ReadonlyArray<IdentificationInput>
}

/** Body of a person's create or update, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface PersonBody {
  readonly email?: string | null
  readonly first_name?: string | null
  readonly middle_name?: string | null
  readonly last_name?: string | null
  readonly phone_number?: string | null
  readonly date_of_birth?: string | null
  readonly nationality?: string | null
  readonly job_title?: string | null
  readonly roles?: ReadonlyArray<string>
  readonly residential_address?: AddressInput | null
  readonly identifications?: ReadonlyArray<IdentificationInput>
}
