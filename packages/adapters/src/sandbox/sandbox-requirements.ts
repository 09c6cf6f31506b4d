import type { EntityType, RequirementField, RequirementsSchema } from "@payments-engine/core"

/** One way to pay into a country: a transfer method, its clearing system and the fields it needs. */
interface MethodSpec {
  readonly transferMethod: "LOCAL" | "SWIFT"
  readonly clearingSystem: string | null
  readonly paymentMethod: string
  readonly fields: ReadonlyArray<RequirementField>
}

const rule = (
  pattern: string,
  min: number | null,
  max: number | null,
  type: "REGEX" | "IBAN" | "ABA_ROUTING_NUMBER" | "CLABE" = "REGEX",
) => ({
  type,
  pattern,
  minimum_length: min,
  maximum_length: max,
})

const input = (
  path: string,
  label: string,
  required: boolean,
  fieldRule: RequirementField["rule"],
  fixed?: string,
): RequirementField => ({
  enabled: true,
  path,
  required,
  field: { key: path.split(".").at(-1)!, label, type: "INPUT", options: [], default: fixed ?? null, refresh: false },
  rule: fieldRule,
})

const select = (
  path: string,
  label: string,
  type: "SELECT" | "RADIO" | "TRANSFER_METHOD",
  values: ReadonlyArray<string>,
  refresh: boolean,
  fallback: string | null,
): RequirementField => ({
  enabled: true,
  path,
  required: true,
  field: {
    key: path.split(".").at(-1)!,
    label,
    type,
    options: values.map((value) => ({ label: value, value })),
    default: fallback,
    refresh,
  },
  rule: null,
})

const accountNumber = (pattern: string, min: number, max: number, label = "Account number") =>
  input("bank_details.account_number", label, true, rule(pattern, min, max))
const iban = input(
  "bank_details.account_number",
  "IBAN",
  true,
  rule("^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$", 15, 34, "IBAN"),
)
const routing = (
  n: 1 | 2,
  type: string,
  label: string,
  pattern: string,
  min: number,
  max: number,
  checksum?: "ABA_ROUTING_NUMBER",
) => [
  input(`bank_details.account_routing_type${n}`, `${label} type`, true, rule(`^${type}$`, null, null), type),
  input(`bank_details.account_routing_value${n}`, label, true, rule(pattern, min, max, checksum)),
]
const swiftCode = routing(1, "swift", "SWIFT/BIC code", "^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$", 8, 11)

const local = (clearingSystem: string, paymentMethod: string, fields: ReadonlyArray<RequirementField>): MethodSpec => ({
  transferMethod: "LOCAL",
  clearingSystem,
  paymentMethod,
  fields,
})
const swift = (account: RequirementField): MethodSpec => ({
  transferMethod: "SWIFT",
  clearingSystem: null,
  paymentMethod: "swift",
  fields: [account, ...swiftCode],
})

const euroCountries = ["AT", "BE", "DE", "ES", "FI", "FR", "IE", "IT", "NL", "PT"] as const
const sepa = local(
  "SEPA",
  "sepa",
  [iban, ...routing(1, "swift", "BIC", "^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$", 8, 11)].map((f, i) =>
    i > 0 ? { ...f, required: false } : f,
  ),
)

/** Bank countries, their currency and how they are paid: plain data, one row a country. */
export const sandboxCountries: Readonly<
  Record<string, { readonly currency: string; readonly methods: ReadonlyArray<MethodSpec> }>
> = {
  US: {
    currency: "USD",
    methods: [
      local("ACH", "ach", [
        accountNumber("^[0-9]{4,17}$", 4, 17),
        ...routing(1, "aba", "ABA routing number", "^[0-9]{9}$", 9, 9, "ABA_ROUTING_NUMBER"),
      ]),
      local("FEDWIRE", "wire", [
        accountNumber("^[0-9]{4,17}$", 4, 17),
        ...routing(1, "aba", "ABA routing number", "^[0-9]{9}$", 9, 9, "ABA_ROUTING_NUMBER"),
      ]),
      swift(accountNumber("^[0-9]{4,17}$", 4, 17)),
    ],
  },
  GB: {
    currency: "GBP",
    methods: [
      local("FPS", "fps", [
        accountNumber("^[0-9]{8}$", 8, 8),
        ...routing(1, "sort_code", "Sort code", "^[0-9]{6}$", 6, 6),
      ]),
      swift(iban),
    ],
  },
  ...Object.fromEntries(euroCountries.map((country) => [country, { currency: "EUR", methods: [sepa, swift(iban)] }])),
  AU: {
    currency: "AUD",
    methods: [
      local("BECS", "becs", [accountNumber("^[0-9]{5,9}$", 5, 9), ...routing(1, "bsb", "BSB", "^[0-9]{6}$", 6, 6)]),
      swift(accountNumber("^[0-9]{5,9}$", 5, 9)),
    ],
  },
  CA: {
    currency: "CAD",
    methods: [
      local("EFT", "eft", [
        accountNumber("^[0-9]{7,12}$", 7, 12),
        ...routing(1, "institution_number", "Institution number", "^[0-9]{3}$", 3, 3),
        ...routing(2, "transit_number", "Transit number", "^[0-9]{5}$", 5, 5),
      ]),
      swift(accountNumber("^[0-9]{7,12}$", 7, 12)),
    ],
  },
  IN: {
    currency: "INR",
    methods: [
      local("NEFT", "neft", [
        accountNumber("^[0-9]{9,18}$", 9, 18),
        ...routing(1, "ifsc", "IFSC", "^[A-Z]{4}0[A-Z0-9]{6}$", 11, 11),
      ]),
      swift(accountNumber("^[0-9]{9,18}$", 9, 18)),
    ],
  },
  SG: {
    currency: "SGD",
    methods: [
      local("FAST", "fast", [
        accountNumber("^[0-9]{6,17}$", 6, 17),
        ...routing(1, "bank_code", "Bank code", "^[0-9]{4}$", 4, 4),
      ]),
      swift(accountNumber("^[0-9]{6,17}$", 6, 17)),
    ],
  },
  JP: {
    currency: "JPY",
    methods: [
      local("ZENGIN", "zengin", [
        accountNumber("^[0-9]{7}$", 7, 7),
        ...routing(1, "bank_code", "Bank code", "^[0-9]{4}$", 4, 4),
        ...routing(2, "branch_code", "Branch code", "^[0-9]{3}$", 3, 3),
      ]),
      swift(accountNumber("^[0-9]{7}$", 7, 7)),
    ],
  },
  MX: {
    currency: "MXN",
    methods: [
      local("SPEI", "spei", [
        input("bank_details.account_number", "CLABE", true, rule("^[0-9]{18}$", 18, 18, "CLABE")),
      ]),
      swift(accountNumber("^[0-9]{10,18}$", 10, 18)),
    ],
  },
}

/** The fields every schema has: who is paid, the method choice, the bank's country and currency, and the address. */
const commonFields = (
  country: string,
  currency: string,
  entityType: EntityType,
  methods: ReadonlyArray<MethodSpec>,
  chosen: MethodSpec,
): RequirementField[] => {
  const transferMethods = [...new Set(methods.map((m) => m.transferMethod))]
  const clearingSystems = methods.filter((m) => m.transferMethod === "LOCAL").map((m) => m.clearingSystem!)
  return [
    select("entity_type", "Recipient type", "RADIO", ["COMPANY", "PERSONAL"], true, entityType),
    select("transfer_methods", "Transfer method", "TRANSFER_METHOD", transferMethods, true, chosen.transferMethod),
    ...(chosen.transferMethod === "LOCAL" && clearingSystems.length > 1
      ? [
          select(
            "bank_details.local_clearing_system",
            "Clearing system",
            "SELECT",
            clearingSystems,
            true,
            chosen.clearingSystem,
          ),
        ]
      : []),
    input(
      "bank_details.account_name",
      entityType === "COMPANY" ? "Business name" : "Full name",
      true,
      rule("^.{2,140}$", 2, 140),
    ),
    input("bank_details.bank_country_code", "Bank country", true, rule(`^${country}$`, 2, 2), country),
    input("bank_details.account_currency", "Account currency", true, rule(`^${currency}$`, 3, 3), currency),
    input("address.country_code", "Country", true, rule("^[A-Z]{2}$", 2, 2), country),
    input("address.street_address", "Street address", true, rule("^.{2,140}$", 2, 140)),
    input("address.city", "City", true, rule("^.{1,80}$", 1, 80)),
    input("address.state", "State or region", false, rule("^.{0,80}$", 0, 80)),
    input("address.postcode", "Postcode", country !== "IE", rule("^[A-Za-z0-9 -]{2,12}$", 2, 12)),
  ]
}

/** The requirements schema for a query, or the reason there is none. */
export const sandboxRequirements = (query: {
  readonly countryCode: string
  readonly currencyCode: string
  readonly entityType: EntityType
  readonly transferMethod?: string
  readonly localClearingSystem?: string
}): { ok: true; schema: RequirementsSchema } | { ok: false; message: string } => {
  const country = sandboxCountries[query.countryCode]
  if (!country) return { ok: false, message: `Bank country ${query.countryCode} is not supported` }
  if (country.currency !== query.currencyCode) {
    return { ok: false, message: `Bank country ${query.countryCode} does not support currency ${query.currencyCode}` }
  }
  const transferMethod = query.transferMethod ?? country.methods[0]!.transferMethod
  const candidates = country.methods.filter((m) => m.transferMethod === transferMethod)
  if (candidates.length === 0) {
    return { ok: false, message: `Transfer method ${transferMethod} is not available for ${query.countryCode}` }
  }
  const chosen =
    transferMethod === "LOCAL" && query.localClearingSystem !== undefined
      ? candidates.find((m) => m.clearingSystem === query.localClearingSystem)
      : candidates[0]
  if (!chosen) {
    return {
      ok: false,
      message: `Clearing system ${query.localClearingSystem} is not available for ${query.countryCode}`,
    }
  }
  return {
    ok: true,
    schema: {
      condition: {
        account_currency: country.currency,
        bank_country_code: query.countryCode,
        entity_type: query.entityType,
        local_clearing_system: chosen.clearingSystem,
        transfer_method: chosen.transferMethod,
      },
      fields: [
        ...commonFields(query.countryCode, country.currency, query.entityType, country.methods, chosen),
        ...chosen.fields,
      ],
      payment_method: chosen.paymentMethod,
    },
  }
}

/** Payment methods of a country and currency, as `GET /api/v1/payment_methods` lists them. */
export const sandboxPaymentMethods = (countryCode: string, currencyCode: string) => {
  const country = sandboxCountries[countryCode]
  if (!country || country.currency !== currencyCode) return []
  const local = country.methods.filter((m) => m.transferMethod === "LOCAL").map((m) => m.clearingSystem!)
  return [
    ...(local.length > 0 ? [{ transfer_method: "LOCAL", local_clearing_systems: local }] : []),
    ...(country.methods.some((m) => m.transferMethod === "SWIFT")
      ? [{ transfer_method: "SWIFT", local_clearing_systems: [] }]
      : []),
  ]
}
