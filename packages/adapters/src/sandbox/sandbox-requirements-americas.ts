import { type SandboxCountryRow, swiftMethod } from "./sandbox-requirements-table.ts"

const usAccountNumber = {
  path: "bank_details.account_number",
  label: "Account number",
  pattern: "^[0-9]{4,17}$",
  length: [4, 17],
} as const

const abaRouting = [
  { path: "bank_details.account_routing_type1", label: "Routing number type", fixed: "aba" },
  {
    path: "bank_details.account_routing_value1",
    label: "ABA routing number",
    pattern: "^[0-9]{9}$",
    length: [9, 9],
    check: "ABA_ROUTING_NUMBER",
  },
] as const

const caAccountNumber = {
  path: "bank_details.account_number",
  label: "Account number",
  pattern: "^[0-9]{7,12}$",
  length: [7, 12],
} as const

const clabe = {
  path: "bank_details.account_number",
  label: "CLABE",
  pattern: "^[0-9]{18}$",
  length: [18, 18],
  check: "CLABE",
} as const

/** The United States, Canada and Mexico. */
export const americas: Readonly<Record<string, SandboxCountryRow>> = {
  US: {
    name: "United States",
    currency: "USD",
    methods: [
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "ACH", label: "ACH (1 business day)" },
        paymentMethod: "ach",
        fields: [usAccountNumber, ...abaRouting],
      },
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "FEDWIRE", label: "Fedwire (same day)" },
        paymentMethod: "wire",
        fields: [usAccountNumber, ...abaRouting],
      },
      swiftMethod("US", usAccountNumber),
    ],
  },
  CA: {
    name: "Canada",
    currency: "CAD",
    methods: [
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "EFT", label: "EFT (Payments Canada)" },
        paymentMethod: "eft",
        fields: [
          caAccountNumber,
          { path: "bank_details.account_routing_type1", label: "Routing number type", fixed: "institution_number" },
          {
            path: "bank_details.account_routing_value1",
            label: "Institution number",
            pattern: "^[0-9]{3}$",
            length: [3, 3],
          },
          { path: "bank_details.account_routing_type2", label: "Routing number type", fixed: "transit_number" },
          {
            path: "bank_details.account_routing_value2",
            label: "Transit number",
            pattern: "^[0-9]{5}$",
            length: [5, 5],
          },
        ],
      },
      swiftMethod("CA", caAccountNumber),
    ],
  },
  MX: {
    name: "Mexico",
    currency: "MXN",
    methods: [
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "SPEI", label: "SPEI" },
        paymentMethod: "spei",
        fields: [clabe],
      },
      swiftMethod("MX", clabe),
    ],
  },
}
