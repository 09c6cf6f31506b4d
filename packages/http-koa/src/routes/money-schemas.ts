import { paymentStatuses } from "@payments-engine/core"
import { Schema } from "effect"

/**
 * Query parameters of the money routes, for the OpenAPI document: the engine reads and
 * validates the raw query itself.
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
