import {
  BankAccount,
  BankAccountCreate,
  PaymentCreate,
  PaymentInstruction,
  Quote,
  QuoteCreate,
  RequirementsRequest,
} from "@payments-engine/core"
import { Schema } from "effect"
import { BankAccountRequirements, PaymentListQuery, PaymentMethod, PaymentMethodsQuery } from "./money-schemas.ts"
import type { RouteSpec } from "./route-table.ts"

/** Payments and bank accounts: 25 a page by default, 100 at most (the spec's limits). */
const pagedBy25 = { defaultPerPage: 25, maxPerPage: 100 }

/**
 * Rows of money movement: payment methods and bank-account requirements (from the payment
 * provider), recipient bank accounts, the company's bank accounts, quotes and payments.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...apiRoutes] })
 */
export const moneyRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/payment_methods",
    operationId: "listPaymentMethods",
    summary: "Transfer methods and clearing systems for a bank country, currency and entity type (case-insensitive)",
    tag: "Bank accounts",
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
    tag: "Bank accounts",
    auth: "bearer",
    request: RequirementsRequest,
    response: { kind: "data", schema: BankAccountRequirements },
    status: 200,
    errors: [400, 401, 422, 500],
    handle: ({ engine, actor, body }) => engine.paymentMethods.requirements(actor, body),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/recipients/{recipient_id}/bank_accounts",
    operationId: "createRecipientBankAccount",
    summary: "Add a bank account to a recipient, validated against the requirements; creates a credit profile",
    tag: "Bank accounts",
    auth: "bearer",
    request: BankAccountCreate,
    response: { kind: "data", schema: BankAccount },
    status: 201,
    errors: [400, 401, 403, 404, 422, 500],
    handle: ({ engine, actor, param, body }) =>
      engine.bankAccounts.createForRecipient(actor, param("cid"), param("recipient_id"), body),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/bank_accounts",
    operationId: "listBankAccounts",
    summary: "The company's bank accounts: recipients' and funding accounts",
    tag: "Bank accounts",
    auth: "bearer",
    paging: pagedBy25,
    response: { kind: "page", schema: BankAccount },
    status: 200,
    errors: [400, 401, 404],
    handle: ({ engine, actor, param, query }) => engine.bankAccounts.list(actor, param("cid"), query),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/bank_accounts/{id}",
    operationId: "getBankAccount",
    summary: "Fetch a bank account",
    tag: "Bank accounts",
    auth: "bearer",
    response: { kind: "data", schema: BankAccount },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, param }) => engine.bankAccounts.get(actor, param("cid"), param("id")),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/quotes",
    operationId: "createQuote",
    summary: "Price a transfer between two profiles; valid 15 minutes, for one payment",
    tag: "Payments",
    auth: "bearer",
    request: QuoteCreate,
    response: { kind: "data", schema: Quote },
    status: 201,
    errors: [400, 401, 403, 404, 422, 500],
    handle: ({ engine, actor, param, body }) => engine.quotes.create(actor, param("cid"), body),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/payments",
    operationId: "createPayment",
    summary: "Pay from a quote; 200 with the existing payment when its idempotency_key was used for the same request",
    tag: "Payments",
    auth: "bearer",
    request: PaymentCreate,
    response: { kind: "created-or-existing", schema: PaymentInstruction },
    status: 201,
    errors: [400, 401, 403, 404, 422],
    handle: async ({ engine, actor, param, body }) => {
      const { payment, created } = await engine.payments.create(actor, param("cid"), body)
      return { value: payment, created }
    },
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/payments",
    operationId: "listPayments",
    summary: "Payments of the company, filtered by status and payment_batch_id",
    tag: "Payments",
    auth: "bearer",
    query: PaymentListQuery,
    paging: pagedBy25,
    response: { kind: "page", schema: PaymentInstruction },
    status: 200,
    errors: [400, 401, 404],
    handle: ({ engine, actor, param, query }) => engine.payments.list(actor, param("cid"), query),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/payments/{id}",
    operationId: "getPayment",
    summary: "Fetch a payment",
    tag: "Payments",
    auth: "bearer",
    response: { kind: "data", schema: PaymentInstruction },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, param }) => engine.payments.get(actor, param("cid"), param("id")),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/payments/{id}/cancel",
    operationId: "cancelPayment",
    summary: "Cancel a pending payment",
    tag: "Payments",
    auth: "bearer",
    response: { kind: "data", schema: PaymentInstruction },
    status: 200,
    errors: [401, 403, 404, 422],
    handle: ({ engine, actor, param }) => engine.payments.cancel(actor, param("cid"), param("id")),
  },
]
