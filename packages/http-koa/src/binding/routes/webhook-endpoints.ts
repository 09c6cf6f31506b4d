import {
  CompanyId,
  pagePolicies,
  WebhookDelivery,
  WebhookDeliveryId,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointCreated,
  WebhookEndpointId,
  WebhookEndpointListQuery,
  WebhookEndpointTest,
  WebhookEndpointUpdate,
  WebhookEventCategoryEntry,
  WebhookRecovery,
  WebhookRecoveryCreate,
  WebhookRecoveryId,
  WebhookSecretRotated,
} from "@payments-engine/core/effect"
import { Schema } from "effect"
import type { AuthenticatedRoute, RouteCall, RouteSpec } from "./route-table.ts"

const tag = "Webhook endpoints"

/** Each by-id route in both forms of DECISIONS "Paths": under the company, and under the workspace alone. */
const byIdPaths = [
  { prefix: "/api/v1/companies/{cid}/webhook_endpoints/{id}", suffix: "" },
  { prefix: "/api/v1/webhook_endpoints/{id}", suffix: "InWorkspace" },
] as const

/** The company of the path, or null for the workspace form. */
const companyOf = ({ pathId, param }: RouteCall) => (param("cid") === "" ? null : pathId("cid", CompanyId))

/** The row `row` describes, once under each path form, with the webhook error shape. */
const byId = (
  row: (path: string, suffix: string, scopeNote: string) => Omit<AuthenticatedRoute, "tag" | "auth" | "errorShape">,
): ReadonlyArray<AuthenticatedRoute> =>
  byIdPaths.map(({ prefix, suffix }) => ({
    ...row(prefix, suffix, suffix === "" ? "" : " (any company of the API key's workspace)"),
    tag,
    auth: "bearer",
    errorShape: "webhook",
  }))

/**
 * Webhook endpoints (create with the secret shown once, list, fetch, update, toggle, delete, test,
 * recover their failed deliveries; by id under the company or the workspace) and the catalogue of
 * events they may subscribe to.
 * Their own errors are `{ error: { code, message, details } }` (`validation_error` 422,
 * `not_found` 404).
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...webhookEndpointRoutes] })
 */
export const webhookEndpointRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/webhook_events",
    operationId: "listWebhookEvents",
    summary: "Every event an endpoint may subscribe to, grouped by category",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: Schema.Array(WebhookEventCategoryEntry) },
    status: 200,
    errors: [401],
    handle: ({ engine }) => engine.webhookEvents.list(),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/webhook_endpoints",
    operationId: "createWebhookEndpoint",
    summary: "Create an endpoint; the answer carries its signing secret, shown this once",
    tag,
    auth: "bearer",
    errorShape: "webhook",
    request: WebhookEndpointCreate,
    response: { kind: "data", schema: WebhookEndpointCreated },
    status: 201,
    errors: [401, 403, 404, 422],
    handle: ({ engine, actor, pathId, body }) => engine.webhookEndpoints.create(actor, pathId("cid", CompanyId), body),
  },
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/webhook_endpoints",
    operationId: "listWebhookEndpoints",
    summary: "Endpoints of the company, filtered by active",
    tag,
    auth: "bearer",
    errorShape: "webhook",
    query: WebhookEndpointListQuery,
    paging: pagePolicies.webhookEndpoints,
    response: { kind: "page", schema: WebhookEndpoint, meta: "webhook" },
    status: 200,
    errors: [401, 404, 422],
    handle: ({ engine, actor, pathId, query }) => engine.webhookEndpoints.list(actor, pathId("cid", CompanyId), query),
  },
  ...byId((path, suffix, note) => ({
    method: "GET",
    path,
    operationId: `getWebhookEndpoint${suffix}`,
    summary: `Fetch an endpoint with the events it subscribes to${note}`,
    response: { kind: "data", schema: WebhookEndpoint },
    status: 200,
    errors: [401, 404],
    handle: (call) =>
      call.engine.webhookEndpoints.get(call.actor, companyOf(call), call.pathId("id", WebhookEndpointId)),
  })),
  ...byId((path, suffix, note) => ({
    method: "PATCH",
    path,
    operationId: `updateWebhookEndpoint${suffix}`,
    summary: `Change an endpoint's url, active or event_names (which replaces its events)${note}`,
    request: WebhookEndpointUpdate,
    response: { kind: "data", schema: WebhookEndpoint },
    status: 200,
    errors: [401, 403, 404, 422],
    handle: (call) =>
      call.engine.webhookEndpoints.update(call.actor, companyOf(call), call.pathId("id", WebhookEndpointId), call.body),
  })),
  ...byId((path, suffix, note) => ({
    method: "DELETE",
    path,
    operationId: `deleteWebhookEndpoint${suffix}`,
    summary: `Delete an endpoint${note}`,
    response: { kind: "empty" },
    status: 204,
    errors: [401, 403, 404],
    handle: (call) =>
      call.engine.webhookEndpoints.delete(call.actor, companyOf(call), call.pathId("id", WebhookEndpointId)),
  })),
  ...byId((path, suffix, note) => ({
    method: "POST",
    path: `${path}/rotate_secret`,
    operationId: `rotateWebhookSecret${suffix}`,
    summary: `A new signing secret, shown this once; the old one signs beside it for 24 hours${note}`,
    response: { kind: "data", schema: WebhookSecretRotated },
    status: 200,
    errors: [401, 403, 404],
    handle: (call) =>
      call.engine.webhookEndpoints.rotateSecret(call.actor, companyOf(call), call.pathId("id", WebhookEndpointId)),
  })),
  ...byId((path, suffix, note) => ({
    method: "GET",
    path: `${path}/deliveries`,
    operationId: `listWebhookDeliveries${suffix}`,
    summary: `The endpoint's deliveries, newest first, each with its attempts (time, status code, duration, error)${note}`,
    paging: pagePolicies.webhookDeliveries,
    response: { kind: "page", schema: WebhookDelivery, meta: "webhook" },
    status: 200,
    errors: [401, 404, 422],
    handle: (call) =>
      call.engine.webhookDeliveries.list(call.actor, companyOf(call), call.pathId("id", WebhookEndpointId), call.query),
  })),
  ...byId((path, suffix, note) => ({
    method: "POST",
    path: `${path}/deliveries/{delivery_id}/retry`,
    operationId: `retryWebhookDelivery${suffix}`,
    summary: `Send a delivery again now, whatever its state${note}`,
    response: { kind: "data", schema: WebhookDelivery },
    status: 202,
    errors: [401, 403, 404],
    handle: (call) =>
      call.engine.webhookDeliveries.retry(
        call.actor,
        companyOf(call),
        call.pathId("id", WebhookEndpointId),
        call.pathId("delivery_id", WebhookDeliveryId),
      ),
  })),
  ...byId((path, suffix, note) => ({
    method: "POST",
    path: `${path}/test`,
    operationId: `testWebhookEndpoint${suffix}`,
    summary: `Send the endpoint a signed WebhookEndpointEvents::TestEvent now and answer the attempt (status code, duration, outcome, error)${note}`,
    response: { kind: "data", schema: WebhookEndpointTest },
    status: 200,
    errors: [401, 403, 404],
    handle: (call) =>
      call.engine.webhookDeliveries.test(call.actor, companyOf(call), call.pathId("id", WebhookEndpointId)),
  })),
  ...byId((path, suffix, note) => ({
    method: "POST",
    path: `${path}/recover`,
    operationId: `recoverWebhookDeliveries${suffix}`,
    summary: `Send again, by a job, every failed delivery of the endpoint created since \`since\` (until \`until\`, or now; at most 14 days back)${note}`,
    request: WebhookRecoveryCreate,
    response: { kind: "data", schema: WebhookRecovery },
    status: 202,
    errors: [401, 403, 404, 422],
    handle: (call) =>
      call.engine.webhookRecoveries.recover(
        call.actor,
        companyOf(call),
        call.pathId("id", WebhookEndpointId),
        call.body,
      ),
  })),
  ...byId((path, suffix, note) => ({
    method: "GET",
    path: `${path}/recoveries/{recovery_id}`,
    operationId: `getWebhookRecovery${suffix}`,
    summary: `A recovery of the endpoint's failed deliveries: its status and how many it queued${note}`,
    response: { kind: "data", schema: WebhookRecovery },
    status: 200,
    errors: [401, 404],
    handle: (call) =>
      call.engine.webhookRecoveries.get(
        call.actor,
        companyOf(call),
        call.pathId("id", WebhookEndpointId),
        call.pathId("recovery_id", WebhookRecoveryId),
      ),
  })),
  ...byId((path, suffix, note) => ({
    method: "PATCH",
    path: `${path}/toggle`,
    operationId: `toggleWebhookEndpoint${suffix}`,
    summary: `Switch an endpoint from active to inactive or back${note}`,
    response: { kind: "data", schema: WebhookEndpoint },
    status: 200,
    errors: [401, 403, 404],
    handle: (call) =>
      call.engine.webhookEndpoints.toggle(call.actor, companyOf(call), call.pathId("id", WebhookEndpointId)),
  })),
]
