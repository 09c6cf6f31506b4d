import {
  BankAccount,
  BankAccountCreate,
  BankAccountId,
  CompanyId,
  pagePolicies,
  RecipientId,
} from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Bank accounts"

/**
 * Rows of bank accounts: a recipient's account is created under the recipient; the company's
 * accounts (recipients' and funding accounts) are listed and fetched. Read-only once created.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...bankAccountRoutes] })
 */
export const bankAccountRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/recipients/{recipient_id}/bank_accounts",
    operationId: "createRecipientBankAccount",
    summary: "Add a bank account to a recipient, validated against the requirements; creates a credit profile",
    tag,
    auth: "bearer",
    request: BankAccountCreate,
    response: { kind: "data", schema: BankAccount },
    status: 201,
    errors: [400, 401, 403, 404, 422, 500],
    handle: ({ engine, actor, pathId, body }) =>
      engine.bankAccounts.createForRecipient(
        actor,
        pathId("cid", CompanyId),
        pathId("recipient_id", RecipientId),
        body,
      ),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/bank_accounts",
    operationId: "listBankAccounts",
    summary: "The company's bank accounts: recipients' and funding accounts",
    tag,
    auth: "bearer",
    paging: pagePolicies.bankAccounts,
    response: { kind: "page", schema: BankAccount },
    status: 200,
    errors: [400, 401, 404],
    handle: ({ engine, actor, pathId, query }) => engine.bankAccounts.list(actor, pathId("cid", CompanyId), query),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/bank_accounts/{id}",
    operationId: "getBankAccount",
    summary: "Fetch a bank account",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: BankAccount },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, pathId }) =>
      engine.bankAccounts.get(actor, pathId("cid", CompanyId), pathId("id", BankAccountId)),
  },
]
