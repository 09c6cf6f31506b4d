import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { openApiDocument, successSchemaOf } from "../src/binding/openapi/openapi-document.ts"
import { ErrorResponse } from "../src/binding/openapi/openapi-schemas.ts"
import { apiRoutes } from "../src/binding/routes/api-routes.ts"
import { sandboxRoutes } from "../src/binding/routes/sandbox-routes.ts"
import { WebhookErrorResponse } from "../src/binding/webhook-errors.ts"

/**
 * The reference shows an example of every request and every answer (issue 25), and each is one
 * the route itself takes or gives: decoded with the route's own Schemas, as the engine decodes a
 * request and as the route's answer is encoded.
 */
const routes = [...apiRoutes, ...sandboxRoutes]
const document = openApiDocument(routes)

type Media = { readonly example?: unknown }
type Operation = {
  readonly requestBody?: { readonly content: Record<string, Media> }
  readonly responses: Record<string, { readonly content?: Record<string, Media> }>
}

const operationOf = (path: string, method: string) =>
  document.paths[path]?.[method.toLowerCase()] as unknown as Operation

/** Why `value` does not decode with `schema`, or undefined when it does. */
const problemOf = (schema: Schema.Schema.Any, value: unknown): string | undefined => {
  const decoded = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>)(value)
  return Either.isLeft(decoded) ? decoded.left.message : undefined
}

describe("the OpenAPI document's examples", () => {
  it("give every JSON request body an example the route decodes", () => {
    const problems: Array<string> = []
    for (const route of routes) {
      if (route.request === undefined) continue
      const media = operationOf(route.path, route.method).requestBody?.content["application/json"]
      if (media?.example === undefined) {
        problems.push(`${route.operationId}: no request example`)
        continue
      }
      const problem = problemOf(route.request, media.example)
      if (problem !== undefined) problems.push(`${route.operationId}: ${JSON.stringify(media.example)}\n${problem}`)
    }
    expect(problems.join("\n\n")).toBe("")
  })

  it("give every JSON answer, success and error, an example of its documented shape", () => {
    const problems: Array<string> = []
    for (const route of routes) {
      const operation = operationOf(route.path, route.method)
      const success = successSchemaOf(route)
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.["application/json"]
        if (media === undefined) continue
        if (media.example === undefined) {
          problems.push(`${route.operationId} ${status}: no example`)
          continue
        }
        const schema =
          Number(status) < 300 || route.errorsLikeSuccess?.[Number(status)] !== undefined
            ? success
            : "error" in (media.example as object)
              ? WebhookErrorResponse
              : ErrorResponse
        if (schema === undefined) continue
        const problem = problemOf(schema, media.example)
        if (problem !== undefined) {
          problems.push(`${route.operationId} ${status}: ${JSON.stringify(media.example)}\n${problem}`)
        }
      }
    }
    expect(problems.join("\n\n")).toBe("")
  })

  it("show what a caller would send, not placeholders", () => {
    const create = operationOf("/api/v1/companies", "POST")
    expect(create.requestBody?.content["application/json"]?.example).toEqual({
      name: "Acme Inc",
      country: "US",
      default_currency: "USD",
    })
    expect(create.responses["201"]?.content?.["application/json"]?.example).toMatchObject({
      data: { id: expect.stringMatching(/^cmp_/), name: "Acme Inc", country: "US", default_currency: "USD" },
    })
    expect(create.responses["401"]?.content?.["application/json"]?.example).toEqual({
      errors: [{ field: "token", message: "Missing or invalid token" }],
    })
  })
})
