import {
  CompanyId,
  PaymentBatch,
  PaymentBatchCreate,
  PaymentBatchId,
  PaymentBatchListQuery,
  pagePolicies,
} from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Payment batches"

/**
 * Payment batches: create (201, or 200 with the batch an earlier request with the same
 * `idempotency_key` made), list, fetch, and process (202: the batch's payments run in the
 * background; its counts show their progress).
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...paymentBatchRoutes] })
 */
export const paymentBatchRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/payment_batches",
    operationId: "createPaymentBatch",
    summary:
      "Create a batch in building; 200 with the existing batch when its idempotency_key was used with the same label and metadata",
    tag,
    auth: "bearer",
    request: PaymentBatchCreate,
    response: { kind: "created-or-existing", schema: PaymentBatch },
    status: 201,
    errors: [400, 401, 403, 404, 422],
    handle: async ({ engine, actor, pathId, body }) => {
      const { batch, created } = await engine.paymentBatches.create(actor, pathId("cid", CompanyId), body)
      return { value: batch, created }
    },
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/payment_batches",
    operationId: "listPaymentBatches",
    summary: "Batches of the company, filtered by status and creation day (from_date and to_date, inclusive)",
    tag,
    auth: "bearer",
    query: PaymentBatchListQuery,
    paging: pagePolicies.paymentBatches,
    response: { kind: "page", schema: PaymentBatch },
    status: 200,
    errors: [400, 401, 404],
    handle: ({ engine, actor, pathId, query }) => engine.paymentBatches.list(actor, pathId("cid", CompanyId), query),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/payment_batches/{id}",
    operationId: "getPaymentBatch",
    summary: "Fetch a batch, with its counts as they are now",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: PaymentBatch },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, pathId }) =>
      engine.paymentBatches.get(actor, pathId("cid", CompanyId), pathId("id", PaymentBatchId)),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/payment_batches/{id}/process_batch",
    operationId: "processPaymentBatch",
    summary: "Start executing the batch's payments in the background",
    tag,
    auth: "bearer",
    rateLimit: "payments",
    response: { kind: "data", schema: PaymentBatch },
    status: 202,
    errors: [401, 403, 404, 409, 422],
    handle: ({ engine, actor, pathId }) =>
      engine.paymentBatches.process(actor, pathId("cid", CompanyId), pathId("id", PaymentBatchId)),
  },
]
