import { type SandboxCountryRow, swiftMethod } from "./sandbox-requirements-table.ts"

const auAccountNumber = {
  path: "bank_details.account_number",
  label: "Account number",
  pattern: "^[0-9]{5,9}$",
  length: [5, 9],
} as const

const inAccountNumber = {
  path: "bank_details.account_number",
  label: "Account number",
  pattern: "^[0-9]{9,18}$",
  length: [9, 18],
} as const

const sgAccountNumber = {
  path: "bank_details.account_number",
  label: "Account number",
  pattern: "^[0-9]{6,17}$",
  length: [6, 17],
} as const

const jpAccountNumber = {
  path: "bank_details.account_number",
  label: "Account number",
  pattern: "^[0-9]{7}$",
  length: [7, 7],
} as const

/** Australia, India, Singapore and Japan. */
export const asiaPacific: Readonly<Record<string, SandboxCountryRow>> = {
  AU: {
    name: "Australia",
    currency: "AUD",
    methods: [
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "BECS", label: "Direct Entry (BECS)" },
        paymentMethod: "becs",
        fields: [
          auAccountNumber,
          { path: "bank_details.account_routing_type1", label: "Routing number type", fixed: "bsb" },
          { path: "bank_details.account_routing_value1", label: "BSB", pattern: "^[0-9]{6}$", length: [6, 6] },
        ],
      },
      swiftMethod("AU", auAccountNumber),
    ],
  },
  IN: {
    name: "India",
    currency: "INR",
    methods: [
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "NEFT", label: "NEFT" },
        paymentMethod: "neft",
        fields: [
          inAccountNumber,
          { path: "bank_details.account_routing_type1", label: "Routing number type", fixed: "ifsc" },
          {
            path: "bank_details.account_routing_value1",
            label: "IFSC",
            pattern: "^[A-Z]{4}0[A-Z0-9]{6}$",
            length: [11, 11],
          },
        ],
      },
      swiftMethod("IN", inAccountNumber),
    ],
  },
  SG: {
    name: "Singapore",
    currency: "SGD",
    methods: [
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "FAST", label: "FAST" },
        paymentMethod: "fast",
        fields: [
          sgAccountNumber,
          { path: "bank_details.account_routing_type1", label: "Routing number type", fixed: "bank_code" },
          { path: "bank_details.account_routing_value1", label: "Bank code", pattern: "^[0-9]{4}$", length: [4, 4] },
        ],
      },
      swiftMethod("SG", sgAccountNumber),
    ],
  },
  JP: {
    name: "Japan",
    currency: "JPY",
    methods: [
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "ZENGIN", label: "Zengin" },
        paymentMethod: "zengin",
        fields: [
          jpAccountNumber,
          { path: "bank_details.account_routing_type1", label: "Routing number type", fixed: "bank_code" },
          { path: "bank_details.account_routing_value1", label: "Bank code", pattern: "^[0-9]{4}$", length: [4, 4] },
          { path: "bank_details.account_routing_type2", label: "Routing number type", fixed: "branch_code" },
          {
            path: "bank_details.account_routing_value2",
            label: "Branch code",
            pattern: "^[0-9]{3}$",
            length: [3, 3],
          },
        ],
      },
      swiftMethod("JP", jpAccountNumber),
    ],
  },
}
