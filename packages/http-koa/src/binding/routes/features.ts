import { CompanyId, EntityId, Feature, FeatureEnable } from "@payments-engine/core/effect"
import { Schema } from "effect"
import type { RouteSpec } from "./route-table.ts"

const tag = "Features"

/**
 * Rows of an entity's features (the multi-currency account). Enabling answers 201 with a new
 * application, or 200 with the entity's application while it is still CREATED.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...featureRoutes] })
 */
export const featureRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: "/api/v1/companies/{cid}/entities/{eid}/features",
    operationId: "listFeatures",
    summary: "List the features of an entity",
    tag,
    auth: "bearer",
    rateLimit: "multi_currency",
    response: { kind: "data", schema: Schema.Array(Feature) },
    status: 200,
    errors: [401, 404],
    handle: ({ engine, actor, pathId }) =>
      engine.features.list(actor, pathId("cid", CompanyId), pathId("eid", EntityId)),
  },
  {
    method: "POST",
    path: "/api/v1/companies/{cid}/entities/{eid}/features",
    operationId: "enableFeature",
    summary:
      "Enable a feature (multi_currency_account, US entities only); 200 with the existing application while it is CREATED",
    tag,
    auth: "bearer",
    rateLimit: "multi_currency",
    request: FeatureEnable,
    response: { kind: "created-or-existing", schema: Feature },
    status: 201,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: async ({ engine, actor, pathId, body }) => {
      const { feature, created } = await engine.features.enable(
        actor,
        pathId("cid", CompanyId),
        pathId("eid", EntityId),
        body,
      )
      return { value: feature, created }
    },
  },
]
