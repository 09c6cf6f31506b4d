import type {
  EntityType,
  PaymentMethodOption,
  PaymentMethodQuery,
  RequirementField,
  RequirementsAnswer,
  RequirementsQuery,
} from "@payments-engine/core"
import { americas } from "./sandbox-requirements-americas.ts"
import { asiaPacific } from "./sandbox-requirements-asia-pacific.ts"
import { europe } from "./sandbox-requirements-europe.ts"
import type { SandboxCountryRow, SandboxFieldRow, SandboxMethodRow } from "./sandbox-requirements-table.ts"

/**
 * The bank countries the sandbox serves, with their currency and payment methods: US, CA, MX,
 * GB, the euro area (AT BE DE ES FI FR IE IT NL PT), AU, IN, SG, JP. Data only; see the
 * `sandbox-requirements-<region>.ts` tables.
 *
 * @example
 * sandboxCountries.US?.methods.map((m) => m.clearingSystem?.value ?? m.transferMethod) // ["ACH", "FEDWIRE", "SWIFT"]
 */
export const sandboxCountries: Readonly<Record<string, SandboxCountryRow>> = { ...americas, ...europe, ...asiaPacific }

const transferMethodLabels: Readonly<Record<string, string>> = {
  LOCAL: "Local bank transfer",
  SWIFT: "International wire (SWIFT)",
}

const text = (
  path: string,
  label: string,
  options: { required: boolean; pattern: string; length: readonly [number, number]; fixed?: string },
): RequirementField => ({
  enabled: true,
  path,
  required: options.required,
  field: {
    key: path.split(".").at(-1)!,
    label,
    type: "INPUT",
    options: [],
    default: options.fixed ?? null,
    refresh: false,
  },
  rule: {
    type: "REGEX",
    pattern: options.pattern,
    minimum_length: options.length[0],
    maximum_length: options.length[1],
  },
})

const choice = (
  path: string,
  label: string,
  type: "SELECT" | "RADIO" | "TRANSFER_METHOD",
  options: ReadonlyArray<{ readonly label: string; readonly value: string }>,
  chosen: string,
  refresh: boolean,
  required = true,
): RequirementField => ({
  enabled: true,
  path,
  required,
  field: { key: path.split(".").at(-1)!, label, type, options, default: chosen, refresh },
  rule: null,
})

const fromRow = (row: SandboxFieldRow): RequirementField => {
  const required = row.required ?? true
  if (row.fixed !== undefined) {
    return choice(row.path, row.label, "SELECT", [{ label: row.fixed, value: row.fixed }], row.fixed, false, required)
  }
  return {
    enabled: true,
    path: row.path,
    required,
    field: {
      key: row.path.split(".").at(-1)!,
      label: row.label,
      type: "INPUT",
      options: [],
      default: null,
      refresh: false,
    },
    rule: {
      type: row.check ?? "REGEX",
      pattern: row.pattern ?? "",
      minimum_length: row.length?.[0] ?? null,
      maximum_length: row.length?.[1] ?? null,
    },
  }
}

/** Transfer methods of a country, in table order, without repeats. */
const transferMethodsOf = (country: SandboxCountryRow) => [...new Set(country.methods.map((m) => m.transferMethod))]

const clearingSystemsOf = (country: SandboxCountryRow) =>
  country.methods.flatMap((m) => (m.transferMethod === "LOCAL" && m.clearingSystem ? [m.clearingSystem] : []))

/**
 * Every field of one schema: who is paid, the refresh choices (entity type, transfer method,
 * clearing system), the bank's country and currency, the method's own fields, then the address.
 */
const fieldsOf = (
  code: string,
  country: SandboxCountryRow,
  entityType: EntityType,
  method: SandboxMethodRow,
): RequirementField[] => [
  choice(
    "entity_type",
    "Recipient type",
    "RADIO",
    [
      { label: "Business", value: "COMPANY" },
      { label: "Individual", value: "PERSONAL" },
    ],
    entityType,
    true,
  ),
  choice(
    "transfer_methods",
    "Transfer method",
    "TRANSFER_METHOD",
    transferMethodsOf(country).map((value) => ({ label: transferMethodLabels[value] ?? value, value })),
    method.transferMethod,
    true,
  ),
  ...(method.clearingSystem === undefined
    ? []
    : [
        choice(
          "bank_details.local_clearing_system",
          "Clearing system",
          "SELECT",
          clearingSystemsOf(country),
          method.clearingSystem.value,
          true,
        ),
      ]),
  choice(
    "bank_details.bank_country_code",
    "Bank country",
    "SELECT",
    [{ label: country.name, value: code }],
    code,
    false,
  ),
  choice(
    "bank_details.account_currency",
    "Account currency",
    "SELECT",
    [{ label: country.currency, value: country.currency }],
    country.currency,
    false,
  ),
  text("bank_details.account_name", entityType === "COMPANY" ? "Business name" : "Full name", {
    required: true,
    pattern: "^.+$",
    length: [2, 140],
  }),
  ...method.fields.map(fromRow),
  text("address.country_code", "Country", { required: true, pattern: "^[A-Z]{2}$", length: [2, 2], fixed: code }),
  text("address.street_address", "Street address", { required: true, pattern: "^.+$", length: [2, 140] }),
  text("address.city", "City", { required: true, pattern: "^.+$", length: [1, 80] }),
  text("address.state", "State, province or region", { required: false, pattern: "^.+$", length: [1, 80] }),
  text("address.postcode", "Postcode", { required: false, pattern: "^[A-Za-z0-9][A-Za-z0-9 -]*$", length: [2, 12] }),
]

const listed = (values: ReadonlyArray<string>) => values.join(", ")

/** The table's country for a query, or the message saying why there is none. */
const countryFor = (countryCode: string, currencyCode: string) => {
  const country = sandboxCountries[countryCode]
  if (country === undefined) return { message: `Bank country ${countryCode} is not supported` } as const
  if (country.currency !== currencyCode) {
    return { message: `Bank country ${countryCode} does not support currency ${currencyCode}` } as const
  }
  return { country } as const
}

/**
 * The sandbox's bank-account requirements for a query: the first LOCAL method when it names none,
 * the first clearing system of a transfer method when it names none. A clearing system named
 * with SWIFT is ignored (a form switching to SWIFT may still send the old one). An unknown
 * country, currency, transfer method or clearing system answers `ok: false` with a message for
 * the client. Query values are compared in upper case.
 *
 * @example
 * sandboxRequirements({ countryCode: "GB", currencyCode: "GBP", entityType: "PERSONAL" })
 * // { ok: true, schema: { condition: { ..., local_clearing_system: "FPS", transfer_method: "LOCAL" }, fields: [...], payment_method: "fps" } }
 * sandboxRequirements({ countryCode: "US", currencyCode: "EUR", entityType: "COMPANY" })
 * // { ok: false, message: "Bank country US does not support currency EUR" }
 */
export const sandboxRequirements = (query: RequirementsQuery): RequirementsAnswer => {
  const code = query.countryCode.toUpperCase()
  const found = countryFor(code, query.currencyCode.toUpperCase())
  if (found.country === undefined) return { ok: false, message: found.message }
  const { country } = found
  const transferMethods = transferMethodsOf(country)
  const transferMethod = query.transferMethod?.toUpperCase() || transferMethods[0]!
  const candidates = country.methods.filter((m) => m.transferMethod === transferMethod)
  if (candidates.length === 0) {
    return {
      ok: false,
      message: `Transfer method ${transferMethod} is not supported for bank country ${code} (supported: ${listed(transferMethods)})`,
    }
  }
  const clearingSystem = transferMethod === "LOCAL" ? query.localClearingSystem?.toUpperCase() || undefined : undefined
  const method =
    clearingSystem === undefined ? candidates[0] : candidates.find((m) => m.clearingSystem?.value === clearingSystem)
  if (method === undefined) {
    const supported = listed(clearingSystemsOf(country).map((c) => c.value))
    return {
      ok: false,
      message: `Local clearing system ${clearingSystem} is not supported for bank country ${code} (supported: ${supported})`,
    }
  }
  return {
    ok: true,
    schema: {
      condition: {
        account_currency: country.currency,
        bank_country_code: code,
        entity_type: query.entityType,
        local_clearing_system: method.clearingSystem?.value ?? null,
        transfer_method: method.transferMethod,
      },
      fields: fieldsOf(code, country, query.entityType, method),
      payment_method: method.paymentMethod,
    },
  }
}

/**
 * Payment methods of a bank country and currency, as `GET /api/v1/payment_methods` lists them:
 * LOCAL with its clearing systems, then SWIFT. Empty for a combination the sandbox does not serve.
 *
 * @example
 * sandboxPaymentMethods({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY" })
 * // [{ transfer_method: "LOCAL", local_clearing_systems: ["ACH", "FEDWIRE"] }, { transfer_method: "SWIFT", local_clearing_systems: [] }]
 */
export const sandboxPaymentMethods = (query: PaymentMethodQuery): ReadonlyArray<PaymentMethodOption> => {
  const { country } = countryFor(query.countryCode.toUpperCase(), query.currencyCode.toUpperCase())
  if (country === undefined) return []
  return transferMethodsOf(country).map((transferMethod) => ({
    transfer_method: transferMethod,
    local_clearing_systems:
      transferMethod === "LOCAL" ? clearingSystemsOf(country).map((clearingSystem) => clearingSystem.value) : [],
  }))
}
