import { CompanyId, pagePolicies, Recipient, RecipientCreate, RecipientId } from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Recipients"

/**
 * Rows of the recipients (payees) of a company. Delete answers 204 without a body.
 *
 * @example
 * const { routes } = registerRoutes([...recipientRoutes], dependencies)
 */
export const recipientRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/recipients",
    operationId: "listRecipients",
    summary: "List the recipients of a company that are not deleted",
    tag,
    auth: "bearer",
    paging: pagePolicies.recipients,
    response: { kind: "page", schema: Recipient },
    status: 200,
    errors: [400, 401, 404],
    handle: ({ engine, actor, pathId, query }) => engine.recipients.list(actor, pathId("cid", CompanyId), query),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/recipients",
    operationId: "createRecipient",
    summary: "Create a recipient",
    tag,
    auth: "bearer",
    request: RecipientCreate,
    response: { kind: "data", schema: Recipient },
    status: 201,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: ({ engine, actor, pathId, body }) => engine.recipients.create(actor, pathId("cid", CompanyId), body),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/recipients/{id}",
    operationId: "getRecipient",
    summary: "Fetch a recipient",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: Recipient },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, pathId }) =>
      engine.recipients.get(actor, pathId("cid", CompanyId), pathId("id", RecipientId)),
  },
  {
    method: "DELETE",
    path: "/api/v1/companies/{cid}/recipients/{id}",
    operationId: "deleteRecipient",
    summary: "Delete a recipient: it leaves lists and cannot be fetched; payments keep their history",
    tag,
    auth: "bearer",
    response: { kind: "empty" },
    status: 204,
    errors: [401, 403, 404],
    handle: ({ engine, actor, pathId }) =>
      engine.recipients.delete(actor, pathId("cid", CompanyId), pathId("id", RecipientId)),
  },
]
