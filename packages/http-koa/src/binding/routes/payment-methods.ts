import {
  BankAccountRequirements,
  PaymentMethod,
  PaymentMethodsQuery,
  RequirementsRequest,
} from "@payments-engine/core/effect"
import { Schema } from "effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Bank accounts"

/**
 * Rows of what the payment provider accepts: transfer methods for a bank country and currency,
 * and the form a recipient bank account must fill.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...paymentMethodRoutes] })
 */
export const paymentMethodRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/payment_methods",
    operationId: "listPaymentMethods",
    summary: "Transfer methods and clearing systems for a bank country, currency and entity type (case-insensitive)",
    tag,
    auth: "bearer",
    query: PaymentMethodsQuery,
    response: { kind: "data", schema: Schema.Array(PaymentMethod) },
    status: 200,
    errors: [400, 401, 422, 500],
    handle: ({ engine, actor, query }) => engine.paymentMethods.list(actor, query),
  },
  {
    method: "POST",
    path: "/api/v1/bank_account_requirements",
    operationId: "getBankAccountRequirements",
    summary: "The form a recipient bank account must fill; ask again when a field with refresh changes",
    tag,
    auth: "bearer",
    request: RequirementsRequest,
    response: { kind: "data", schema: BankAccountRequirements },
    status: 200,
    errors: [400, 401, 422, 500],
    handle: ({ engine, actor, body }) => engine.paymentMethods.requirements(actor, body),
  },
]
