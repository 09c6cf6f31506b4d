import { readFileSync } from "node:fs"
import { memoryRateLimitStore } from "@payments-engine/adapters"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createLogger } from "../src/binding/logger.ts"
import { rateLimitSettings } from "../src/binding/rate-limits/rate-limit-settings.ts"
import { rateLimiting } from "../src/binding/rate-limits/rate-limiting.ts"
import { apiRoutes } from "../src/binding/routes/api-routes.ts"
import { bankAccountRoutes } from "../src/binding/routes/bank-accounts.ts"
import { paymentMethodRoutes } from "../src/binding/routes/payment-methods.ts"
import { paymentRoutes } from "../src/binding/routes/payments.ts"
import { quoteRoutes } from "../src/binding/routes/quotes.ts"
import { registerRoutes } from "../src/binding/routes/register-routes.ts"
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
    // The packages' version, the one every package.json says, not a version of its own.
    const versions = ["core", "adapters", "http-koa", "contract-tests", "client"].map(
      (name) => JSON.parse(readFileSync(new URL(`../../${name}/package.json`, import.meta.url), "utf8")).version,
    )
    expect(new Set(versions).size).toBe(1)
    expect(document.info.version).toBe(versions[0])
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
    const { routers } = registerRoutes(apiRoutes, {
      engine: service.engine,
      tokens: { issue: async () => Promise.reject(new Error("unused")), verify: async () => undefined },
      logger: createLogger({ level: "silent" }),
      openApi: () => document,
      readiness: async () => Promise.reject(new Error("unused")),
      rateLimiting: rateLimiting(memoryRateLimitStore(), rateLimitSettings()),
    })
    const registered = routers
      .flatMap((router) => router.stack)
      .flatMap((layer) =>
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

  it("describes POST /graphql: bearer auth, its request and answer, its 16 KB body", () => {
    const graphql = document.paths["/graphql"].post
    expect(graphql.security).toEqual([{ bearerAuth: [] }])
    expect(graphql.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/GraphqlRequest",
    })
    expect(graphql.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/GraphqlResponse",
    })
    expect(graphql.responses["413"].description).toBe("Body over 16 KB")
    expect(Object.keys(graphql.responses)).toEqual(expect.arrayContaining(["200", "401", "406", "413", "429"]))
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
    expect(Object.keys(sessions.responses).sort()).toEqual(["201", "400", "401", "413", "415", "429"])
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
    expect(Object.keys(recipientDelete.responses).sort()).toEqual(["204", "401", "403", "404", "429"])
  })

  it("describes the money routes: their bodies, query parameters, statuses and envelopes", () => {
    for (const route of [...paymentMethodRoutes, ...bankAccountRoutes, ...quoteRoutes, ...paymentRoutes]) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId, route.operationId).toBe(
        route.operationId,
      )
    }
    const schemas = document.components.schemas
    const body = (path: string, method: string) =>
      document.paths[path][method].requestBody.content["application/json"].schema
    const success = (path: string, method: string, status: string) =>
      document.paths[path][method].responses[status].content["application/json"].schema
    const parameters = (path: string, method: string) =>
      document.paths[path][method].parameters.map(
        (p: { name?: string; in?: string; required?: boolean; $ref?: string }) =>
          p.$ref ?? `${p.in}:${p.name}${p.required ? "!" : ""}`,
      )

    const methods = "/api/v1/payment_methods"
    expect(parameters(methods, "get")).toEqual(["query:country_code!", "query:currency_code!", "query:entity_type!"])
    expect(success(methods, "get", "200").properties.data).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/PaymentMethod" },
    })
    expect(Object.keys(document.paths[methods].get.responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "422",
      "429",
      "500",
    ])

    const requirements = "/api/v1/bank_account_requirements"
    expect(body(requirements, "post")).toEqual({ $ref: "#/components/schemas/BankAccountRequirementsRequest" })
    expect(success(requirements, "post", "200").properties.data).toEqual({
      $ref: "#/components/schemas/BankAccountRequirements",
    })
    expect(schemas.BankAccountRequirements.required).toEqual(["condition", "fields"])
    expect(schemas.RequirementField.required).toEqual(["enabled", "path", "required", "field", "rule"])

    const accounts = "/api/v1/companies/{cid}/recipients/{recipient_id}/bank_accounts"
    expect(parameters(accounts, "post")).toEqual([
      "path:cid!",
      "path:recipient_id!",
      "#/components/parameters/IdempotencyKey",
    ])
    expect(body(accounts, "post")).toEqual({ $ref: "#/components/schemas/BankAccountCreate" })
    expect(schemas.BankAccountCreate.required).toEqual(["entity_id", "beneficiary_details"])
    expect(success(accounts, "post", "201").properties.data).toEqual({ $ref: "#/components/schemas/BankAccount" })
    expect(schemas.AccountDetail.properties).not.toHaveProperty("account_number")
    const accountList = document.paths["/api/v1/companies/{cid}/bank_accounts"].get
    expect(accountList.parameters.find((p: { name: string }) => p.name === "per_page").schema.default).toBe(25)

    const quotes = "/api/v1/companies/{cid}/quotes"
    expect(body(quotes, "post")).toEqual({ $ref: "#/components/schemas/QuoteCreate" })
    expect(schemas.QuoteCreate.required).toEqual(["quote"])
    expect(schemas.QuoteFields.required).toEqual(["from_profile_id", "to_profile_id", "instructed_amount"])
    expect(success(quotes, "post", "201").properties.data).toEqual({ $ref: "#/components/schemas/Quote" })
    expect(parameters(quotes, "post")).toContain("#/components/parameters/IdempotencyKey")

    const payments = "/api/v1/companies/{cid}/payments"
    expect(body(payments, "post")).toEqual({ $ref: "#/components/schemas/PaymentCreate" })
    expect(schemas.PaymentFields.required).toEqual(["payment_quote_id", "reason"])
    for (const status of ["200", "201"]) {
      expect(success(payments, "post", status).properties.data).toEqual({
        $ref: "#/components/schemas/PaymentInstruction",
      })
    }
    expect(parameters(payments, "post")).toContain("#/components/parameters/IdempotencyKey")
    expect(parameters(payments, "get")).toEqual([
      "path:cid!",
      "query:status",
      "query:payment_batch_id",
      "query:page",
      "query:per_page",
    ])
    const statusParameter = document.paths[payments].get.parameters[1]
    expect(statusParameter.schema).toEqual({
      type: "string",
      enum: ["pending", "processing", "completed", "failed", "cancelled"],
    })
    expect(document.paths[payments].get.parameters[4].schema.default).toBe(25)
    const cancel = document.paths["/api/v1/companies/{cid}/payments/{id}/cancel"].post
    expect(cancel.requestBody).toBeUndefined()
    expect(Object.keys(cancel.responses).sort()).toEqual(["200", "401", "403", "404", "409", "422", "429"])
    expect(document.paths["/api/v1/companies/{cid}/payments/{id}"].get.responses["200"].content).toBeDefined()
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/api/v1/sandbox"))).toEqual([])
  })

  it("describes the feature routes: the enable body, 201 or 200 with a Feature, and the list", () => {
    const path = "/api/v1/companies/{cid}/entities/{eid}/features"
    const enable = document.paths[path].post
    expect(enable.operationId).toBe("enableFeature")
    expect(enable.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/FeatureEnable",
    })
    expect(enable.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" })
    for (const status of ["200", "201"]) {
      expect(enable.responses[status].content["application/json"].schema.properties.data).toEqual({
        $ref: "#/components/schemas/Feature",
      })
    }
    expect(Object.keys(enable.responses)).toEqual(expect.arrayContaining(["400", "401", "403", "404", "422"]))
    const list = document.paths[path].get
    expect(list.operationId).toBe("listFeatures")
    expect(list.responses["200"].content["application/json"].schema.properties.data).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/Feature" },
    })
    const schemas = document.components.schemas
    expect(schemas.FeatureEnable.required).toEqual(["feature_identifier"])
    expect(schemas.FeatureEnable.properties.feature_identifier.enum).toEqual(["multi_currency_account"])
    expect(schemas.Feature.required).toEqual(["feature_identifier", "feature_name", "application_id", "status"])
    expect(schemas.Feature.properties.status.enum).toEqual(["CREATED", "SUBMITTED", "ACTIVE", "ACTION_REQUIRED"])
    expect(document.paths).not.toHaveProperty("/api/v1/sandbox/features/{application_id}/status")
  })

  it("describes the hosted-page token routes: the two body forms under an entity, the funding body, 201 token object", () => {
    const entityRoute = document.paths["/api/v1/companies/{cid}/entities/{eid}/hosted_page_tokens"].post
    const fundingRoute = document.paths["/api/v1/hosted_page_tokens"].post
    expect(entityRoute.operationId).toBe("createEntityHostedPageToken")
    expect(fundingRoute.operationId).toBe("createFundingHostedPageToken")
    const schemas = document.components.schemas
    expect(entityRoute.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/EntityHostedPageTokenRequest",
    })
    expect(schemas.EntityHostedPageTokenRequest.anyOf).toEqual([
      { $ref: "#/components/schemas/RecipientTokenRequest" },
      { $ref: "#/components/schemas/FeatureTokenRequest" },
    ])
    expect(fundingRoute.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/FundingTokenRequest",
    })
    expect(schemas.RecipientTokenRequest.required).toEqual(["purpose", "recipient_id"])
    expect(schemas.FeatureTokenRequest.required).toEqual(["feature_identifier", "purpose", "application_id"])
    expect(schemas.FundingTokenRequest.required).toEqual(["entity_id", "purpose"])
    expect(schemas.FundingTokenRequest.properties.purpose.enum).toEqual(["funding_accounts"])
    expect(schemas.FundingTokenRequest.properties.return_url.maxLength).toBe(2048)
    for (const route of [entityRoute, fundingRoute]) {
      expect(route.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" })
      expect(route.responses["201"].content["application/json"].schema.properties.data).toEqual({
        $ref: "#/components/schemas/HostedPageToken",
      })
      expect(Object.keys(route.responses)).toEqual(expect.arrayContaining(["400", "401", "403", "422", "429"]))
    }
    expect(schemas.HostedPageToken.required).toEqual(["token", "purpose"])
    expect(Object.keys(schemas.HostedPageToken.properties)).toEqual([
      "token",
      "purpose",
      "recipient_id",
      "feature_identifier",
      "application_id",
      "return_url",
    ])
  })

  it("describes the attachment routes: a multipart upload, the 10 MiB limit stated exactly, the upload caps, a binary download and the delete", () => {
    const base = "/api/v1/companies/{cid}/entities/{eid}/onboarding/attachments"
    const upload = document.paths[base].post
    expect(upload.operationId).toBe("createOnboardingAttachment")
    expect(upload.requestBody.required).toBe(true)
    expect(Object.keys(upload.requestBody.content)).toEqual(["multipart/form-data"])
    expect(upload.requestBody.content["multipart/form-data"].schema).toEqual({
      $ref: "#/components/schemas/AttachmentUploadForm",
    })
    const form = document.components.schemas.AttachmentUploadForm
    expect(form.required).toEqual(["file", "document_type"])
    expect(form.properties.file).toMatchObject({ type: "string", format: "binary" })
    expect(form.properties.document_type.enum).toEqual([
      "certificate_of_incorporation",
      "proof_of_address",
      "bank_statement",
      "identity_document",
      "other",
    ])
    expect(upload.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" })
    expect(upload.responses["201"].content["application/json"].schema.properties.data).toEqual({
      $ref: "#/components/schemas/OnboardingAttachment",
    })
    expect(upload.requestBody.description).toContain("at most 10 MiB (10,485,760 bytes)")
    expect(form.properties.file.description).toContain("at most 10 MiB (10,485,760 bytes)")
    expect(upload.responses["413"].description).toContain("File over 10 MiB (10,485,760 bytes)")
    expect(upload.responses["429"].description).toContain("uploads in progress")
    expect(upload.responses["503"].description).toContain("uploads in progress")
    expect(Object.keys(upload.responses)).toEqual(
      expect.arrayContaining(["400", "401", "403", "404", "409", "413", "415", "422", "429", "503"]),
    )
    expect(document.components.schemas.OnboardingAttachment.required).toEqual([
      "id",
      "document_type",
      "file_name",
      "content_type",
      "size_bytes",
      "sha256",
      "created_at",
    ])
    expect(document.paths[base].get.operationId).toBe("listOnboardingAttachments")
    expect(document.paths[`${base}/{id}`].get.operationId).toBe("getOnboardingAttachment")
    const download = document.paths[`${base}/{id}/content`].get
    expect(download.operationId).toBe("downloadOnboardingAttachment")
    expect(download.responses["200"].content).toEqual({
      "application/pdf": { schema: { type: "string", format: "binary" } },
      "image/png": { schema: { type: "string", format: "binary" } },
      "image/jpeg": { schema: { type: "string", format: "binary" } },
    })
    expect(Object.keys(download.responses["200"].headers)).toEqual(
      expect.arrayContaining(["Content-Disposition", "X-Content-Type-Options"]),
    )
    const remove = document.paths[`${base}/{id}`].delete
    expect(remove.operationId).toBe("deleteOnboardingAttachment")
    expect(Object.keys(remove.responses)).toEqual(expect.arrayContaining(["204", "403", "404"]))
  })

  it("documents the sandbox helpers of an app that serves them", async () => {
    const sandbox = await startTestService({ storage: await sqlite.factory(), sandbox: true })
    try {
      const sandboxDocument = (await sandbox.request("GET", "/openapi.json")).body
      const advance = sandboxDocument.paths["/api/v1/sandbox/clock/advance"].post
      expect(advance.operationId).toBe("sandboxAdvanceClock")
      expect(sandboxDocument.components.schemas.ClockAdvance.properties.seconds).toMatchObject({
        minimum: 0,
        maximum: 31_536_000,
      })
      const link = sandboxDocument.paths["/api/v1/sandbox/entities/{eid}/funding_accounts"].post
      expect(link.responses["201"].content["application/json"].schema.properties.data).toEqual({
        $ref: "#/components/schemas/BankAccount",
      })
      expect(link.requestBody.content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/FundingAccountLink",
      })
      expect(sandboxDocument.components.schemas.FundingAccountLink.required ?? []).toEqual([])
      const status = sandboxDocument.paths["/api/v1/sandbox/features/{application_id}/status"].post
      expect(status.operationId).toBe("sandboxSetFeatureStatus")
      expect(status.parameters).toContainEqual(expect.objectContaining({ name: "application_id", in: "path" }))
      expect(status.requestBody.content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/FeatureStatusChange",
      })
      expect(sandboxDocument.components.schemas.FeatureStatusChange.properties.status.enum).toEqual([
        "SUBMITTED",
        "ACTIVE",
        "ACTION_REQUIRED",
      ])
      expect(status.responses["200"].content["application/json"].schema.properties.data).toEqual({
        $ref: "#/components/schemas/Feature",
      })
    } finally {
      await sandbox.close()
    }
  })
})
