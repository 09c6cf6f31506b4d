import {
  CompanyId,
  PaymentCreate,
  PaymentId,
  PaymentInstruction,
  PaymentListQuery,
  pagePolicies,
} from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Payments"

/**
 * Rows of payment instructions: create from a quote (201, or 200 with the payment an earlier
 * request with the same `idempotency_key` made), list, fetch and cancel.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...paymentRoutes] })
 */
export const paymentRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/payments",
    operationId: "createPayment",
    summary: "Pay from a quote; 200 with the existing payment when its idempotency_key was used for the same request",
    tag,
    auth: "bearer",
    rateLimit: "payments",
    request: PaymentCreate,
    response: { kind: "created-or-existing", schema: PaymentInstruction },
    status: 201,
    errors: [400, 401, 403, 404, 422],
    handle: async ({ engine, actor, pathId, body }) => {
      const { payment, created } = await engine.payments.create(actor, pathId("cid", CompanyId), body)
      return { value: payment, created }
    },
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/payments",
    operationId: "listPayments",
    summary: "Payments of the company, filtered by status and payment_batch_id",
    tag,
    auth: "bearer",
    query: PaymentListQuery,
    paging: pagePolicies.payments,
    response: { kind: "page", schema: PaymentInstruction },
    status: 200,
    errors: [400, 401, 404],
    handle: ({ engine, actor, pathId, query }) => engine.payments.list(actor, pathId("cid", CompanyId), query),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/payments/{id}",
    operationId: "getPayment",
    summary: "Fetch a payment",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: PaymentInstruction },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, pathId }) =>
      engine.payments.get(actor, pathId("cid", CompanyId), pathId("id", PaymentId)),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/payments/{id}/cancel",
    operationId: "cancelPayment",
    summary: "Cancel a pending payment",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: PaymentInstruction },
    status: 200,
    errors: [401, 403, 404, 422],
    handle: ({ engine, actor, pathId }) =>
      engine.payments.cancel(actor, pathId("cid", CompanyId), pathId("id", PaymentId)),
  },
]
