import {
  CompanyId,
  Entity,
  EntityCreate,
  EntityDeleted,
  EntityId,
  EntityUpdate,
  pagePolicies,
} from "@payments-engine/core/effect"
import { Schema } from "effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Entities"

/**
 * Rows of the entities of a company. Delete answers `{ data: { id, message }, message }`: the
 * spec's body field `message`, with `data` as every success body has.
 *
 * @example
 * const { routes } = registerRoutes([...entityRoutes], dependencies)
 */
export const entityRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/entities",
    operationId: "listEntities",
    summary: "List the entities of a company",
    tag,
    auth: "bearer",
    paging: pagePolicies.entities,
    response: { kind: "page", schema: Entity },
    status: 200,
    errors: [400, 401, 404],
    handle: ({ engine, actor, pathId, query }) => engine.entities.list(actor, pathId("cid", CompanyId), query),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/entities",
    operationId: "createEntity",
    summary: "Create the entity of a company (one that is not deleted per company)",
    tag,
    auth: "bearer",
    request: EntityCreate,
    response: { kind: "data", schema: Entity },
    status: 201,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: ({ engine, actor, pathId, body }) => engine.entities.create(actor, pathId("cid", CompanyId), body),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/entities/{id}",
    operationId: "getEntity",
    summary: "Fetch an entity",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: Entity },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, pathId }) => engine.entities.get(actor, pathId("cid", CompanyId), pathId("id", EntityId)),
  },
  {
    method: "PATCH",
    path: "/api/v1/companies/{cid}/entities/{id}",
    operationId: "updateEntity",
    summary: "Update an entity's name or country",
    tag,
    auth: "bearer",
    request: EntityUpdate,
    response: { kind: "data", schema: Entity },
    status: 200,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: ({ engine, actor, pathId, body }) =>
      engine.entities.update(actor, pathId("cid", CompanyId), pathId("id", EntityId), body),
  },
  {
    method: "DELETE",
    path: "/api/v1/companies/{cid}/entities/{id}",
    operationId: "deleteEntity",
    summary: "Delete an entity, which lets the company create another",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: EntityDeleted, echo: { message: Schema.String } },
    status: 200,
    errors: [401, 403, 404],
    handle: ({ engine, actor, pathId }) =>
      engine.entities.delete(actor, pathId("cid", CompanyId), pathId("id", EntityId)),
  },
]
