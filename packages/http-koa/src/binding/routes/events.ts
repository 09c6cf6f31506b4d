import { EventId, EventListQuery, EventResource, pagePolicies } from "@payments-engine/core/effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Events"

/** What happened in the workspace: the events its webhooks carry, listed and fetched. */
export const eventRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/events",
    operationId: "listEvents",
    summary:
      "Events of the workspace, newest first, filtered by type, resource_id and created time (created_from inclusive, created_before exclusive); each kept at least 30 days",
    tag,
    auth: "bearer",
    query: EventListQuery,
    paging: pagePolicies.events,
    response: { kind: "page", schema: EventResource },
    status: 200,
    errors: [400, 401],
    handle: ({ engine, actor, query }) => engine.events.list(actor, query),
  },
  {
    method: "GET",
    path: "/api/v1/events/{id}",
    operationId: "getEvent",
    summary: "Fetch an event, with the payload its webhooks carry",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: EventResource },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, pathId }) => engine.events.get(actor, pathId("id", EventId)),
  },
]
