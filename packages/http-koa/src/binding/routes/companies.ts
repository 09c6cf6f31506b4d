import { Company, CompanyCreate, CompanyId, CompanyUpdate, pagePolicies } from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Companies"

/**
 * Rows of the companies resource: list, create, fetch, update, soft delete (200 with the company
 * as deleted).
 *
 * @example
 * const { routes } = registerRoutes([...companyRoutes], dependencies)
 */
export const companyRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/companies",
    operationId: "listCompanies",
    summary: "List the companies of the workspace (deleted ones left out), oldest first",
    tag,
    auth: "bearer",
    paging: pagePolicies.companies,
    response: { kind: "page", schema: Company },
    status: 200,
    errors: [400, 401],
    handle: ({ engine, actor, query }) => engine.companies.list(actor, query),
  },
  {
    method: "POST",
    path: "/api/v1/companies",
    operationId: "createCompany",
    summary: "Create a company",
    tag,
    auth: "bearer",
    request: CompanyCreate,
    response: { kind: "data", schema: Company },
    status: 201,
    errors: [400, 401, 403, 409, 413, 415, 422],
    handle: ({ engine, actor, body }) => engine.companies.create(actor, body),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{id}",
    operationId: "getCompany",
    summary: "Fetch a company, also once deleted",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: Company },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, pathId }) => engine.companies.get(actor, pathId("id", CompanyId)),
  },
  {
    method: "PATCH",
    path: "/api/v1/companies/{id}",
    operationId: "updateCompany",
    summary: "Update a company's name, country or default currency",
    tag,
    auth: "bearer",
    request: CompanyUpdate,
    response: { kind: "data", schema: Company },
    status: 200,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: ({ engine, actor, pathId, body }) => engine.companies.update(actor, pathId("id", CompanyId), body),
  },
  {
    method: "DELETE",
    path: "/api/v1/companies/{id}",
    operationId: "deleteCompany",
    summary: "Soft-delete a company created through the API; answers the company as deleted",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: Company },
    status: 200,
    errors: [401, 403, 404],
    handle: ({ engine, actor, pathId }) => engine.companies.delete(actor, pathId("id", CompanyId)),
  },
]
