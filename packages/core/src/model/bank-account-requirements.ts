import { Schema } from "effect"
import { Text } from "./fields.ts"
import type * as Types from "./types/bank-account-requirements.ts"

export * from "./types/bank-account-requirements.ts"

/**
 * Wire shapes of the two payment-provider pass-through endpoints, `GET /api/v1/payment_methods`
 * and `POST /api/v1/bank_account_requirements`. The payment provider port's types are these,
 * so a provider answers exactly what the API documents.
 */

const paymentMethodFields = {
  transfer_method: Schema.String.annotations({ description: "LOCAL or SWIFT" }),
  local_clearing_systems: Schema.Array(Schema.String).annotations({
    description: "for example ACH, FEDWIRE; may be empty",
  }),
}

/** The Schema of {@link PaymentMethod}, named so that declarations refer to it instead of copying it. */
export interface PaymentMethodSchema extends Schema.Struct<typeof paymentMethodFields> {}
/**
 * One entry of `GET /api/v1/payment_methods`.
 *
 * @example
 * Schema.decodeUnknownSync(PaymentMethod)({ transfer_method: "LOCAL", local_clearing_systems: ["ACH", "FEDWIRE"] })
 */
export const PaymentMethod: PaymentMethodSchema = Schema.Struct(paymentMethodFields).annotations({
  identifier: "PaymentMethod",
})
export type PaymentMethod = Types.PaymentMethod

const requirementOptionFields = { label: Schema.String, value: Schema.String }

/** The Schema of {@link RequirementOption}, named so that declarations refer to it instead of copying it. */
export interface RequirementOptionSchema extends Schema.Struct<typeof requirementOptionFields> {}
export const RequirementOption: RequirementOptionSchema = Schema.Struct(requirementOptionFields).annotations({
  identifier: "RequirementOption",
})

const fieldRuleFields = {
  type: Schema.Literal("REGEX", "IBAN", "BIC", "ABA_ROUTING_NUMBER", "CLABE").annotations({
    description: "REGEX, or the check the value must also pass (IBAN, BIC, ABA_ROUTING_NUMBER, CLABE)",
  }),
  pattern: Schema.String,
  minimum_length: Schema.NullOr(Schema.Number),
  maximum_length: Schema.NullOr(Schema.Number),
}

/** The Schema of {@link FieldRule}, named so that declarations refer to it instead of copying it. */
export interface FieldRuleSchema extends Schema.Struct<typeof fieldRuleFields> {}
/**
 * How a value is checked. `type` names a check beyond the pattern where the real world has one (a
 * checksum, or a BIC's registered country); every rule also carries the pattern and lengths a
 * form can check by itself.
 */
export const FieldRule: FieldRuleSchema = Schema.Struct(fieldRuleFields).annotations({ identifier: "RequirementRule" })
export type FieldRule = Types.FieldRule

const requirementFieldFields = {
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
}

/** The Schema of {@link RequirementField}, named so that declarations refer to it instead of copying it. */
export interface RequirementFieldSchema extends Schema.Struct<typeof requirementFieldFields> {}
export const RequirementField: RequirementFieldSchema = Schema.Struct(requirementFieldFields).annotations({
  identifier: "RequirementField",
})
export type RequirementField = Types.RequirementField

const bankAccountRequirementsFields = {
  condition: Schema.Struct({
    account_currency: Schema.String,
    bank_country_code: Schema.String,
    entity_type: Schema.Literal("COMPANY", "PERSONAL"),
    local_clearing_system: Schema.NullOr(Schema.String),
    transfer_method: Schema.String,
  }),
  fields: Schema.Array(RequirementField),
}

/** The Schema of {@link BankAccountRequirements}, named so that declarations refer to it instead of copying it. */
export interface BankAccountRequirementsSchema extends Schema.Struct<typeof bankAccountRequirementsFields> {}
/**
 * `data` of `POST /api/v1/bank_account_requirements`: the form a recipient bank account must fill.
 *
 * @example
 * const row = { response: { kind: "data", schema: BankAccountRequirements } }
 */
export const BankAccountRequirements: BankAccountRequirementsSchema = Schema.Struct(
  bankAccountRequirementsFields,
).annotations({ identifier: "BankAccountRequirements" })
export type BankAccountRequirements = Types.BankAccountRequirements

/** A case-insensitive parameter of the provider's pass-through endpoints. */
const parameter = (description: string) => Text.annotations({ description: `${description}; case-insensitive` })

const countryCodeParameter = parameter("ISO 3166-1 alpha-2 country of the bank")
const currencyCodeParameter = parameter("ISO 4217 currency of the account")
const entityTypeParameter = parameter("COMPANY or PERSONAL")

const requirementsRequestFields = {
  country_code: Schema.optional(countryCodeParameter),
  currency_code: Schema.optional(currencyCodeParameter),
  entity_type: Schema.optional(entityTypeParameter),
  transfer_method: Schema.optional(Text),
  local_clearing_system: Schema.optional(Text),
}

/** The Schema of {@link RequirementsRequest}, named so that declarations refer to it instead of copying it. */
export interface RequirementsRequestSchema extends Schema.Struct<typeof requirementsRequestFields> {}
/**
 * Query of `GET /api/v1/payment_methods` and body of `POST /api/v1/bank_account_requirements`.
 * Every field is optional here only so that the engine can answer each missing one of the first
 * three with its own `<name> is required`, all at once.
 */
export const RequirementsRequest: RequirementsRequestSchema = Schema.Struct(requirementsRequestFields).annotations({
  identifier: "BankAccountRequirementsRequest",
})
export type RequirementsRequest = Types.RequirementsRequest

const paymentMethodsQueryFields = {
  country_code: countryCodeParameter,
  currency_code: currencyCodeParameter,
  entity_type: entityTypeParameter,
}

/** The Schema of {@link PaymentMethodsQuery}, named so that declarations refer to it instead of copying it. */
export interface PaymentMethodsQuerySchema extends Schema.Struct<typeof paymentMethodsQueryFields> {}
/**
 * Query of `GET /api/v1/payment_methods` as documented: the same parameters as
 * {@link RequirementsRequest}, all three required (the engine answers a missing one `missing`:
 * `<name> is required`).
 *
 * @example
 * const row = { query: PaymentMethodsQuery }
 */
export const PaymentMethodsQuery: PaymentMethodsQuerySchema = Schema.Struct(paymentMethodsQueryFields)
