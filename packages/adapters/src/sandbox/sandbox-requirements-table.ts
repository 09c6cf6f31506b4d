import { ibanLengths } from "@payments-engine/core"

/**
 * One form field of a payment method, as a row of the sandbox's tables. The builder in
 * `sandbox-requirements.ts` turns rows into the spec's requirement fields.
 */
export interface SandboxFieldRow {
  /** Dot path inside `beneficiary_details`. */
  readonly path: string
  readonly label: string
  /** True when absent. */
  readonly required?: boolean
  /** Anchored regular expression the value must match. */
  readonly pattern?: string
  /** Minimum and maximum length in characters. */
  readonly length?: readonly [minimum: number, maximum: number]
  /** The checksum the value must pass, where the real world has one. */
  readonly check?: "IBAN" | "BIC" | "ABA_ROUTING_NUMBER" | "CLABE"
  /** The only value allowed (the type of a routing number, "aba"): a one-option SELECT defaulting to it. */
  readonly fixed?: string
}

/** One way to pay into a bank country: a transfer method, its clearing system and its fields. */
export interface SandboxMethodRow {
  readonly transferMethod: "LOCAL" | "SWIFT"
  /** The local clearing system (LOCAL only): its code and the label a form shows. */
  readonly clearingSystem?: { readonly value: string; readonly label: string }
  /** The payment method of the profiles of accounts paid this way (ach, wire, swift, sepa ...). */
  readonly paymentMethod: string
  /** The method's own fields, after the common ones (name, country, currency) and before the address. */
  readonly fields: ReadonlyArray<SandboxFieldRow>
}

/** A bank country the sandbox serves: its name, the currency its accounts hold, and how they are paid. */
export interface SandboxCountryRow {
  readonly name: string
  readonly currency: string
  /** The first LOCAL method is the default when a query names none. */
  readonly methods: ReadonlyArray<SandboxMethodRow>
}

/** ISO 9362 BIC whose country part is the bank's country: `DEUTDEFF`, `DEUTDEFF500`. */
const bicPattern = (country: string) => `^[A-Z]{4}${country}[A-Z0-9]{2}([A-Z0-9]{3})?$`

/** The IBAN of a bank country, in `bank_details.account_number`: its prefix, registered length and IBAN check. */
export const ibanRow = (country: string): SandboxFieldRow => {
  const length = ibanLengths[country]
  if (length === undefined) throw new RangeError(`No IBAN length registered for ${country}`)
  return {
    path: "bank_details.account_number",
    label: "IBAN",
    pattern: `^${country}[0-9]{2}[A-Z0-9]{${length - 4}}$`,
    length: [length, length],
    check: "IBAN",
  }
}

/** The bank's SWIFT/BIC code as the first routing number (type `swift`). */
export const bicRows = (country: string, required: boolean): ReadonlyArray<SandboxFieldRow> => [
  { path: "bank_details.account_routing_type1", label: "Routing code type", fixed: "swift", required },
  {
    path: "bank_details.account_routing_value1",
    label: "SWIFT/BIC code",
    pattern: bicPattern(country),
    length: [8, 11],
    check: "BIC",
    required,
  },
]

/** The SWIFT method of a country: the account (its IBAN where it has IBANs) and the bank's BIC. */
export const swiftMethod = (country: string, account: SandboxFieldRow): SandboxMethodRow => ({
  transferMethod: "SWIFT",
  paymentMethod: "swift",
  fields: [account, ...bicRows(country, true)],
})
