import { Schema } from "effect"
import { Text } from "./fields.ts"

/**
 * Wire shapes of the two payment-provider pass-through endpoints, `GET /api/v1/payment_methods`
 * and `POST /api/v1/bank_account_requirements`. The payment provider port's types are these,
 * so a provider answers exactly what the API documents.
 */

/**
 * One entry of `GET /api/v1/payment_methods`.
 *
 * @example
 * Schema.decodeUnknownSync(PaymentMethod)({ transfer_method: "LOCAL", local_clearing_systems: ["ACH", "FEDWIRE"] })
 */
export const PaymentMethod = Schema.Struct({
  transfer_method: Schema.String.annotations({ description: "LOCAL or SWIFT" }),
  local_clearing_systems: Schema.Array(Schema.String).annotations({
    description: "for example ACH, FEDWIRE; may be empty",
  }),
}).annotations({ identifier: "PaymentMethod" })
export type PaymentMethod = typeof PaymentMethod.Type

export const RequirementOption = Schema.Struct({ label: Schema.String, value: Schema.String }).annotations({
  identifier: "RequirementOption",
})

/**
 * How a value is checked. `type` names a check beyond the pattern where the real world has one (a
 * checksum, or a BIC's registered country); every rule also carries the pattern and lengths a
 * form can check by itself.
 */
export const FieldRule = Schema.Struct({
  type: Schema.Literal("REGEX", "IBAN", "BIC", "ABA_ROUTING_NUMBER", "CLABE").annotations({
    description: "REGEX, or the check the value must also pass (IBAN, BIC, ABA_ROUTING_NUMBER, CLABE)",
  }),
  pattern: Schema.String,
  minimum_length: Schema.NullOr(Schema.Number),
  maximum_length: Schema.NullOr(Schema.Number),
}).annotations({ identifier: "RequirementRule" })
export type FieldRule = typeof FieldRule.Type

export const RequirementField = Schema.Struct({
  enabled: Schema.Boolean,
  path: Schema.String.annotations({ description: "dot path of the value inside beneficiary_details" }),
  required: Schema.Boolean,
  field: Schema.Struct({
    key: Schema.String,
    label: Schema.String,
    type: Schema.Literal("INPUT", "SELECT", "RADIO", "TRANSFER_METHOD"),
    options: Schema.Array(RequirementOption),
    default: Schema.NullOr(Schema.String),
    refresh: Schema.Boolean.annotations({ description: "changing this value changes the form: ask again" }),
  }),
  rule: Schema.NullOr(FieldRule),
}).annotations({ identifier: "RequirementField" })
export type RequirementField = typeof RequirementField.Type

/**
 * `data` of `POST /api/v1/bank_account_requirements`: the form a recipient bank account must fill.
 *
 * @example
 * const row = { response: { kind: "data", schema: BankAccountRequirements } }
 */
export const BankAccountRequirements = Schema.Struct({
  condition: Schema.Struct({
    account_currency: Schema.String,
    bank_country_code: Schema.String,
    entity_type: Schema.Literal("COMPANY", "PERSONAL"),
    local_clearing_system: Schema.NullOr(Schema.String),
    transfer_method: Schema.String,
  }),
  fields: Schema.Array(RequirementField),
}).annotations({ identifier: "BankAccountRequirements" })
export type BankAccountRequirements = typeof BankAccountRequirements.Type

/** A case-insensitive parameter of the provider's pass-through endpoints. */
const parameter = (description: string) => Text.annotations({ description: `${description}; case-insensitive` })

const countryCodeParameter = parameter("ISO 3166-1 alpha-2 country of the bank")
const currencyCodeParameter = parameter("ISO 4217 currency of the account")
const entityTypeParameter = parameter("COMPANY or PERSONAL")

/**
 * Query of `GET /api/v1/payment_methods` and body of `POST /api/v1/bank_account_requirements`.
 * Every field is optional here only so that the engine can answer each missing one of the first
 * three with its own `<name> is required`, all at once.
 */
export const RequirementsRequest = Schema.Struct({
  country_code: Schema.optional(countryCodeParameter),
  currency_code: Schema.optional(currencyCodeParameter),
  entity_type: Schema.optional(entityTypeParameter),
  transfer_method: Schema.optional(Text),
  local_clearing_system: Schema.optional(Text),
}).annotations({ identifier: "BankAccountRequirementsRequest" })
export type RequirementsRequest = typeof RequirementsRequest.Type

/**
 * Query of `GET /api/v1/payment_methods` as documented: the same parameters as
 * {@link RequirementsRequest}, all three required (the engine answers a missing one `missing`:
 * `<name> is required`).
 *
 * @example
 * const row = { query: PaymentMethodsQuery }
 */
export const PaymentMethodsQuery = Schema.Struct({
  country_code: countryCodeParameter,
  currency_code: currencyCodeParameter,
  entity_type: entityTypeParameter,
})
