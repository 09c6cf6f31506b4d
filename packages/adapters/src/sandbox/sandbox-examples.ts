import type { EntityType } from "@payments-engine/core"
import { sandboxCountries } from "./sandbox-requirements.ts"

/**
 * Valid bank details for every country and method of the sandbox, keyed by country and by
 * clearing system (LOCAL) or `SWIFT`: real-world check digits (IBAN mod 97, ABA, CLABE) and
 * well-known BICs, made-up accounts. The README's table of test values comes from here.
 *
 * @example
 * sandboxTestAccounts.US.ACH // { account_number: "123456789", account_routing_type1: "aba", account_routing_value1: "021000021" }
 */
export const sandboxTestAccounts = {
  US: {
    ACH: { account_number: "123456789", account_routing_type1: "aba", account_routing_value1: "021000021" },
    FEDWIRE: { account_number: "123456789", account_routing_type1: "aba", account_routing_value1: "026009593" },
    SWIFT: { account_number: "123456789", account_routing_type1: "swift", account_routing_value1: "CHASUS33" },
  },
  CA: {
    EFT: {
      account_number: "1234567",
      account_routing_type1: "institution_number",
      account_routing_value1: "004",
      account_routing_type2: "transit_number",
      account_routing_value2: "12345",
    },
    SWIFT: { account_number: "1234567", account_routing_type1: "swift", account_routing_value1: "ROYCCAT2" },
  },
  MX: {
    SPEI: { account_number: "002010077777777771" },
    SWIFT: { account_number: "002010077777777771", account_routing_type1: "swift", account_routing_value1: "BNMXMXMM" },
  },
  GB: {
    FPS: { account_number: "31926819", account_routing_type1: "sort_code", account_routing_value1: "601613" },
    SWIFT: {
      account_number: "GB29NWBK60161331926819",
      account_routing_type1: "swift",
      account_routing_value1: "NWBKGB2L",
    },
  },
  AT: {
    SEPA: { account_number: "AT611904300234573201" },
    SWIFT: {
      account_number: "AT611904300234573201",
      account_routing_type1: "swift",
      account_routing_value1: "BKAUATWW",
    },
  },
  BE: {
    SEPA: { account_number: "BE68539007547034" },
    SWIFT: { account_number: "BE68539007547034", account_routing_type1: "swift", account_routing_value1: "GEBABEBB" },
  },
  DE: {
    SEPA: { account_number: "DE89370400440532013000" },
    SWIFT: {
      account_number: "DE89370400440532013000",
      account_routing_type1: "swift",
      account_routing_value1: "COBADEFFXXX",
    },
  },
  ES: {
    SEPA: { account_number: "ES9121000418450200051332" },
    SWIFT: {
      account_number: "ES9121000418450200051332",
      account_routing_type1: "swift",
      account_routing_value1: "CAIXESBB",
    },
  },
  FI: {
    SEPA: { account_number: "FI2112345600000785" },
    SWIFT: { account_number: "FI2112345600000785", account_routing_type1: "swift", account_routing_value1: "NDEAFIHH" },
  },
  FR: {
    SEPA: { account_number: "FR1420041010050500013M02606" },
    SWIFT: {
      account_number: "FR1420041010050500013M02606",
      account_routing_type1: "swift",
      account_routing_value1: "BNPAFRPP",
    },
  },
  IE: {
    SEPA: { account_number: "IE29AIBK93115212345678" },
    SWIFT: {
      account_number: "IE29AIBK93115212345678",
      account_routing_type1: "swift",
      account_routing_value1: "AIBKIE2D",
    },
  },
  IT: {
    SEPA: { account_number: "IT60X0542811101000000123456" },
    SWIFT: {
      account_number: "IT60X0542811101000000123456",
      account_routing_type1: "swift",
      account_routing_value1: "UNCRITMM",
    },
  },
  NL: {
    SEPA: { account_number: "NL91ABNA0417164300" },
    SWIFT: { account_number: "NL91ABNA0417164300", account_routing_type1: "swift", account_routing_value1: "ABNANL2A" },
  },
  PT: {
    SEPA: { account_number: "PT50000201231234567890154" },
    SWIFT: {
      account_number: "PT50000201231234567890154",
      account_routing_type1: "swift",
      account_routing_value1: "CGDIPTPL",
    },
  },
  AU: {
    BECS: { account_number: "12345678", account_routing_type1: "bsb", account_routing_value1: "062000" },
    SWIFT: { account_number: "12345678", account_routing_type1: "swift", account_routing_value1: "CTBAAU2S" },
  },
  IN: {
    NEFT: { account_number: "123456789012", account_routing_type1: "ifsc", account_routing_value1: "HDFC0000001" },
    SWIFT: { account_number: "123456789012", account_routing_type1: "swift", account_routing_value1: "HDFCINBB" },
  },
  SG: {
    FAST: { account_number: "1234567890", account_routing_type1: "bank_code", account_routing_value1: "7171" },
    SWIFT: { account_number: "1234567890", account_routing_type1: "swift", account_routing_value1: "DBSSSGSG" },
  },
  JP: {
    ZENGIN: {
      account_number: "1234567",
      account_routing_type1: "bank_code",
      account_routing_value1: "0001",
      account_routing_type2: "branch_code",
      account_routing_value2: "001",
    },
    SWIFT: { account_number: "1234567", account_routing_type1: "swift", account_routing_value1: "MHCBJPJT" },
  },
} as const satisfies Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>>

/** A postal address per bank country, for the examples. */
export const sandboxTestAddresses: Readonly<Record<keyof typeof sandboxTestAccounts, SandboxAddress>> = {
  US: { street_address: "1 Market Street", city: "San Francisco", state: "CA", postcode: "94105" },
  CA: { street_address: "200 Bay Street", city: "Toronto", state: "ON", postcode: "M5J 2J5" },
  MX: { street_address: "Paseo de la Reforma 500", city: "Ciudad de México", state: "CDMX", postcode: "06600" },
  GB: { street_address: "1 Poultry", city: "London", postcode: "EC2R 8EJ" },
  AT: { street_address: "Stephansplatz 1", city: "Wien", postcode: "1010" },
  BE: { street_address: "Rue de la Loi 16", city: "Bruxelles", postcode: "1000" },
  DE: { street_address: "Unter den Linden 1", city: "Berlin", postcode: "10117" },
  ES: { street_address: "Calle de Alcalá 48", city: "Madrid", postcode: "28014" },
  FI: { street_address: "Mannerheimintie 1", city: "Helsinki", postcode: "00100" },
  FR: { street_address: "1 Rue de Rivoli", city: "Paris", postcode: "75001" },
  IE: { street_address: "1 Grafton Street", city: "Dublin", postcode: "D02 XY45" },
  IT: { street_address: "Via del Corso 1", city: "Roma", postcode: "00186" },
  NL: { street_address: "Damrak 1", city: "Amsterdam", postcode: "1012 LG" },
  PT: { street_address: "Rua Augusta 1", city: "Lisboa", postcode: "1100-048" },
  AU: { street_address: "1 George Street", city: "Sydney", state: "NSW", postcode: "2000" },
  IN: { street_address: "1 MG Road", city: "Bengaluru", state: "KA", postcode: "560001" },
  SG: { street_address: "1 Raffles Place", city: "Singapore", postcode: "048616" },
  JP: { street_address: "1-1 Marunouchi", city: "Chiyoda-ku, Tokyo", postcode: "100-0005" },
}

/** A postal address, as `beneficiary_details.address` holds it (without its country code). */
export type SandboxAddress = {
  readonly street_address: string
  readonly city: string
  readonly state?: string
  readonly postcode: string
}

/** `beneficiary_details` of one sandbox example, in the spec's shape (a type, so it fits `Record<string, unknown>`). */
export type SandboxBeneficiaryDetails = {
  readonly entity_type: EntityType
  readonly transfer_methods: ReadonlyArray<string>
  readonly bank_details: {
    readonly account_name: string
    readonly bank_country_code: string
    readonly account_currency: string
    readonly local_clearing_system?: string
    readonly account_number: string
    readonly account_routing_type1?: string
    readonly account_routing_value1?: string
    readonly account_routing_type2?: string
    readonly account_routing_value2?: string
  }
  readonly address: SandboxAddress & { readonly country_code: string }
}

type Accounts = typeof sandboxTestAccounts

/** `US_ACH`, `GB_FPS`, `DE_SEPA`, `DE_SWIFT` ...: a country and a method of {@link sandboxTestAccounts}. */
export type SandboxExampleName = {
  [Country in keyof Accounts]: `${Country}_${Extract<keyof Accounts[Country], string>}`
}[keyof Accounts]

/**
 * Complete, valid `beneficiary_details` for a country of the sandbox and one of its methods (a
 * LOCAL clearing system such as "ACH", or "SWIFT"). Throws for a pair without test account.
 *
 * @example
 * sandboxBeneficiaryDetails("DE", "SEPA", "PERSONAL").bank_details.account_number // "DE89370400440532013000"
 */
export const sandboxBeneficiaryDetails = (
  countryCode: string,
  method: string,
  entityType: EntityType = "COMPANY",
): SandboxBeneficiaryDetails => {
  const accounts: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>> =
    sandboxTestAccounts
  const account = accounts[countryCode]?.[method]
  const country = sandboxCountries[countryCode]
  const address = sandboxTestAddresses[countryCode as keyof Accounts]
  if (account === undefined || country === undefined || address === undefined) {
    throw new RangeError(`The sandbox has no test account for ${countryCode} ${method}`)
  }
  const swift = method === "SWIFT"
  return {
    entity_type: entityType,
    transfer_methods: [swift ? "SWIFT" : "LOCAL"],
    bank_details: {
      account_name: entityType === "COMPANY" ? "Jane Supplier Ltd" : "Jane Supplier",
      bank_country_code: countryCode,
      account_currency: country.currency,
      ...(swift ? {} : { local_clearing_system: method }),
      account_number: account.account_number!,
      ...account,
    },
    address: { country_code: countryCode, ...address },
  }
}

/**
 * Valid `beneficiary_details` (entity type COMPANY) for every country and method of the sandbox,
 * named `<country>_<method>`. Use them in tests and in the README's walkthrough.
 *
 * @example
 * await engine.bankAccounts.createForRecipient(actor, cid, rid, { entity_id: eid, beneficiary_details: sandboxExamples.US_ACH })
 */
export const sandboxExamples = Object.fromEntries(
  Object.entries(sandboxTestAccounts).flatMap(([country, methods]) =>
    Object.keys(methods).map((method) => [`${country}_${method}`, sandboxBeneficiaryDetails(country, method)]),
  ),
) as Readonly<Record<SandboxExampleName, SandboxBeneficiaryDetails>>
