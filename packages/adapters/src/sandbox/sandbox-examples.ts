/** Who is paid and where, shared by every example. */
const party = (country: string, currency: string, extra: Record<string, string>, clearingSystem?: string) => ({
  entity_type: "COMPANY",
  transfer_methods: ["LOCAL"],
  bank_details: {
    account_name: "Jane Supplier Ltd",
    bank_country_code: country,
    account_currency: currency,
    ...(clearingSystem === undefined ? {} : { local_clearing_system: clearingSystem }),
    ...extra,
  },
  address: {
    country_code: country,
    street_address: "1 Test Street",
    city: "Testville",
    state: "TS",
    postcode: "12345",
  },
})

/**
 * Valid `beneficiary_details` for each country's local method in the sandbox: real-world check
 * digits, made-up accounts. Use them in tests and in the README's walkthrough.
 *
 * @example
 * await engine.bankAccounts.createForRecipient(actor, cid, rid, { entity_id, beneficiary_details: sandboxExamples.US_ACH })
 */
export const sandboxExamples = {
  US_ACH: party(
    "US",
    "USD",
    { account_number: "123456789", account_routing_type1: "aba", account_routing_value1: "021000021" },
    "ACH",
  ),
  US_FEDWIRE: party(
    "US",
    "USD",
    { account_number: "123456789", account_routing_type1: "aba", account_routing_value1: "026009593" },
    "FEDWIRE",
  ),
  GB_FPS: party("GB", "GBP", {
    account_number: "31926819",
    account_routing_type1: "sort_code",
    account_routing_value1: "601613",
  }),
  DE_SEPA: party("DE", "EUR", { account_number: "DE89370400440532013000" }),
  FR_SEPA: party("FR", "EUR", { account_number: "FR1420041010050500013M02606" }),
  AU_BECS: party("AU", "AUD", {
    account_number: "12345678",
    account_routing_type1: "bsb",
    account_routing_value1: "062000",
  }),
  CA_EFT: party("CA", "CAD", {
    account_number: "1234567",
    account_routing_type1: "institution_number",
    account_routing_value1: "004",
    account_routing_type2: "transit_number",
    account_routing_value2: "12345",
  }),
  IN_NEFT: party("IN", "INR", {
    account_number: "123456789012",
    account_routing_type1: "ifsc",
    account_routing_value1: "HDFC0000001",
  }),
  SG_FAST: party("SG", "SGD", {
    account_number: "1234567890",
    account_routing_type1: "bank_code",
    account_routing_value1: "7171",
  }),
  JP_ZENGIN: party("JP", "JPY", {
    account_number: "1234567",
    account_routing_type1: "bank_code",
    account_routing_value1: "0001",
    account_routing_type2: "branch_code",
    account_routing_value2: "001",
  }),
  MX_SPEI: party("MX", "MXN", { account_number: "002010077777777771" }),
} as const
