import {
  bicRows,
  ibanRow,
  type SandboxCountryRow,
  type SandboxMethodRow,
  swiftMethod,
} from "./sandbox-requirements-table.ts"

/** SEPA Credit Transfer: the IBAN, and the BIC where the payer knows it. */
const sepa = (country: string): SandboxMethodRow => ({
  transferMethod: "LOCAL",
  clearingSystem: { value: "SEPA", label: "SEPA Credit Transfer" },
  paymentMethod: "sepa",
  fields: [ibanRow(country), ...bicRows(country, false)],
})

const euroArea = (country: string, name: string): SandboxCountryRow => ({
  name,
  currency: "EUR",
  methods: [sepa(country), swiftMethod(country, ibanRow(country))],
})

/** The United Kingdom and the euro area. */
export const europe: Readonly<Record<string, SandboxCountryRow>> = {
  GB: {
    name: "United Kingdom",
    currency: "GBP",
    methods: [
      {
        transferMethod: "LOCAL",
        clearingSystem: { value: "FPS", label: "Faster Payments" },
        paymentMethod: "fps",
        fields: [
          { path: "bank_details.account_number", label: "Account number", pattern: "^[0-9]{8}$", length: [8, 8] },
          { path: "bank_details.account_routing_type1", label: "Routing number type", fixed: "sort_code" },
          {
            path: "bank_details.account_routing_value1",
            label: "Sort code",
            pattern: "^[0-9]{6}$",
            length: [6, 6],
          },
        ],
      },
      swiftMethod("GB", ibanRow("GB")),
    ],
  },
  AT: euroArea("AT", "Austria"),
  BE: euroArea("BE", "Belgium"),
  DE: euroArea("DE", "Germany"),
  ES: euroArea("ES", "Spain"),
  FI: euroArea("FI", "Finland"),
  FR: euroArea("FR", "France"),
  IE: euroArea("IE", "Ireland"),
  IT: euroArea("IT", "Italy"),
  NL: euroArea("NL", "Netherlands"),
  PT: euroArea("PT", "Portugal"),
}
