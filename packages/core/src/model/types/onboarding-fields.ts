import type { OnboardingAddressId } from "./ids.ts"

// The types of `model/onboarding-fields.ts`, written out (docs/decisions.md, "Public types").

/** The kinds of an onboarding address. */
export const addressTypes = ["business", "registration", "residential"] as const
export type AddressType = (typeof addressTypes)[number]

/** An onboarding address as the API returns it; unset fields are null. */
export interface OnboardingAddress {
  readonly id: OnboardingAddressId
  readonly address_type: AddressType
  readonly line1: string | null
  readonly line2: string | null
  readonly city: string | null
  readonly state: string | null
  readonly postal_code: string | null
  readonly country_alpha2: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** An address in a request body (`line1` ... `country_alpha2`), each field optional. */
export interface AddressInput {
  readonly line1?: string | null
  readonly line2?: string | null
  readonly city?: string | null
  readonly state?: string | null
  readonly postal_code?: string | null
  readonly country_alpha2?: string | null
}
