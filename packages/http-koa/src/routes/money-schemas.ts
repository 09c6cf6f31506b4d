import { paymentStatuses } from "@payments-engine/core"
import { Schema } from "effect"

/**
 * Wire shapes of the payment-provider pass-through endpoints and the query parameters of the
 * money routes. The core types them as TypeScript interfaces only (`PaymentMethodOption`,
 * `RequirementsSchema` in its payment-provider port), so the OpenAPI document gets them here.
 */

const caseInsensitive = (description: string) =>
  Schema.String.annotations({ description: `${description}; case-insensitive` })

/**
 * Query of `GET /api/v1/payment_methods`. All three are required (a missing one is a 400
 * `<name> is required`); they are optional in the core's schema only so that it can say so.
 *
 * @example
 * const row = { query: PaymentMethodsQuery }
 */
export const PaymentMethodsQuery = Schema.Struct({
  country_code: caseInsensitive("ISO 3166-1 alpha-2 country of the bank"),
  currency_code: caseInsensitive("ISO 4217 currency of the account"),
  entity_type: caseInsensitive("COMPANY or PERSONAL"),
})

/**
 * Filters of `GET /api/v1/companies/{cid}/payments`; an unknown status is a 400 `status` / `Invalid status`.
 *
 * @example
 * const row = { query: PaymentListQuery }
 */
export const PaymentListQuery = Schema.Struct({
  status: Schema.optional(
    Schema.Literal(...paymentStatuses).annotations({ description: "only payments in this status" }),
  ),
  payment_batch_id: Schema.optional(Schema.String.annotations({ description: "only payments of this batch" })),
})

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

const RequirementOption = Schema.Struct({ label: Schema.String, value: Schema.String }).annotations({
  identifier: "RequirementOption",
})

const RequirementRule = Schema.Struct({
  type: Schema.Literal("REGEX", "IBAN", "ABA_ROUTING_NUMBER", "CLABE").annotations({
    description: "REGEX, or the checksum the value must also pass",
  }),
  pattern: Schema.String,
  minimum_length: Schema.NullOr(Schema.Number),
  maximum_length: Schema.NullOr(Schema.Number),
}).annotations({ identifier: "RequirementRule" })

const RequirementField = Schema.Struct({
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
  rule: Schema.NullOr(RequirementRule),
}).annotations({ identifier: "RequirementField" })

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
