import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createLogger } from "../src/logger.ts"
import { apiRoutes } from "../src/routes/api-routes.ts"
import { registerRoutes } from "../src/routes/register-routes.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

const sqlite = openTestSqlite()
let service: TestService
// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON
let document: any
beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory() })
  const response = await service.request("GET", "/openapi.json")
  expect(response.status).toBe(200)
  document = response.body
})
afterAll(async () => {
  await service.close()
  await sqlite.close()
})

/** Every `$ref` in a JSON value. */
const refsOf = (value: unknown): Array<string> => {
  if (Array.isArray(value)) return value.flatMap(refsOf)
  if (typeof value !== "object" || value === null) return []
  return Object.entries(value).flatMap(([key, child]) =>
    key === "$ref" && typeof child === "string" ? [child] : refsOf(child),
  )
}

const resolve = (ref: string): unknown =>
  ref
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document)

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document with paths, components and a bearer scheme", () => {
    expect(document.openapi).toBe("3.1.0")
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) })
    expect(Object.keys(document.paths).length).toBeGreaterThan(0)
    expect(document.components.securitySchemes.bearerAuth).toEqual({
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
    })
    for (const name of [
      "Company",
      "CompanyCreate",
      "CompanyUpdate",
      "Entity",
      "EntityCreate",
      "EntityUpdate",
      "EntityDeleted",
    ]) {
      expect(document.components.schemas[name], name).toMatchObject({ type: "object" })
    }
    for (const name of [
      "Recipient",
      "RecipientCreate",
      "SessionCreate",
      "Session",
      "ErrorResponse",
      "PageMeta",
      "PageLinks",
    ]) {
      expect(document.components.schemas[name], name).toMatchObject({ type: "object" })
    }
  })

  it("describes every route the Koa router registered, and nothing else", () => {
    const { router } = registerRoutes(apiRoutes, {
      engine: service.engine,
      tokens: { issue: async () => Promise.reject(new Error("unused")), verify: async () => undefined },
      logger: createLogger({ level: "silent" }),
      openApi: () => document,
    })
    const registered = router.stack.flatMap((layer) =>
      layer.methods
        .filter((method) => method !== "HEAD")
        .map((method) => `${method.toLowerCase()} ${String(layer.path).replace(/:(\w+)/g, "{$1}")}`),
    )
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method} ${path}`),
    )
    expect(registered.length).toBe(apiRoutes.length)
    expect(documented.sort()).toEqual(registered.sort())
    for (const route of apiRoutes) {
      expect(document.paths[route.path][route.method.toLowerCase()].operationId).toBe(route.operationId)
    }
  })

  it("resolves every $ref inside the document", () => {
    const refs = refsOf(document)
    expect(refs.length).toBeGreaterThan(10)
    for (const ref of new Set(refs)) expect(resolve(ref), ref).toBeDefined()
  })

  it("takes request bodies from the engine's schemas", () => {
    const create = document.paths["/api/v1/companies"].post
    expect(create.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/CompanyCreate",
    })
    expect(document.components.schemas.CompanyCreate.required).toEqual(["name", "country", "default_currency"])
    expect(document.components.schemas.EntityCreate.required).toEqual(["name", "country_alpha2"])
    expect(document.components.schemas.RecipientCreate.required).toEqual(["name"])
    expect(document.components.schemas.CompanyUpdate.required ?? []).toEqual([])
  })

  it("marks security, parameters, statuses and envelopes", () => {
    const sessions = document.paths["/api/v1/sessions"].post
    expect(sessions.security).toEqual([])
    expect(Object.keys(sessions.responses).sort()).toEqual(["201", "400", "401", "413", "415"])
    expect(document.paths["/health"].get.security).toEqual([])

    const list = document.paths["/api/v1/companies/{cid}/entities"].get
    expect(list.security).toEqual([{ bearerAuth: [] }])
    expect(list.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      "path:cid",
      "query:page",
      "query:per_page",
    ])
    expect(list.parameters[2].schema).toEqual({ type: "integer", minimum: 1, default: 20 })
    const page = list.responses["200"].content["application/json"].schema
    expect(page.properties).toEqual({
      data: { type: "array", items: { $ref: "#/components/schemas/Entity" } },
      meta: { $ref: "#/components/schemas/PageMeta" },
      links: { $ref: "#/components/schemas/PageLinks" },
    })
    expect(list.responses["401"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ErrorResponse",
    })

    const entityCreate = document.paths["/api/v1/companies/{cid}/entities"].post
    expect(entityCreate.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" })
    expect(entityCreate.responses["201"].headers["Idempotent-Replayed"]).toEqual({
      $ref: "#/components/headers/IdempotentReplayed",
    })

    const entityDelete = document.paths["/api/v1/companies/{cid}/entities/{id}"].delete
    expect(entityDelete.responses["200"].content["application/json"].schema).toMatchObject({
      required: ["data", "message"],
      properties: { data: { $ref: "#/components/schemas/EntityDeleted" }, message: { type: "string" } },
    })
    const recipientDelete = document.paths["/api/v1/companies/{cid}/recipients/{id}"].delete
    expect(recipientDelete.responses["204"].content).toBeUndefined()
    expect(Object.keys(recipientDelete.responses).sort()).toEqual(["204", "401", "403", "404"])
  })
})
