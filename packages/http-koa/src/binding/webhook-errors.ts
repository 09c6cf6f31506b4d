import { type DomainError, isDomainError, type Page } from "@payments-engine/core"
import { Schema } from "effect"
import type { AppContext, AppMiddleware } from "./app-state.ts"
import { HttpError } from "./http-error.ts"
import { FieldError } from "./openapi/openapi-schemas.ts"

/**
 * The error body of the webhook endpoint routes (spec, Errors; DECISIONS "Webhooks", Errors):
 * `{ error: { code, message, details: [{ field, message }] } }`.
 *
 * @example
 * Schema.decodeUnknownSync(WebhookErrorResponse)({
 *   error: { code: "validation_error", message: "URL must use HTTPS", details: [{ field: "url", message: "URL must use HTTPS" }] },
 * })
 */
export const WebhookErrorResponse = Schema.Struct({
  error: Schema.Struct({
    code: Schema.Literal("validation_error", "not_found"),
    message: Schema.String.annotations({
      description: "the one problem's message, or `Validation failed` when several fields failed",
    }),
    details: Schema.Array(FieldError),
  }),
}).annotations({ identifier: "WebhookErrorResponse" })

/** The statuses the webhook routes answer in {@link WebhookErrorResponse}; the rest keep the general shape. */
export const webhookErrorStatuses: ReadonlySet<number> = new Set([404, 422])

/** The code and status of a domain error the webhook routes answer in their own shape; undefined for the others. */
const webhookCodeOf = (
  error: DomainError,
): { readonly code: "validation_error" | "not_found"; readonly status: number } | undefined => {
  switch (error.kind) {
    // A bad request and a broken rule are both the spec's `validation_error`, 422.
    case "missing":
    case "invalid":
      return { code: "validation_error", status: 422 }
    case "not_found":
      return { code: "not_found", status: 404 }
    default:
      return undefined
  }
}

const renderWebhookError = (
  ctx: AppContext,
  { code, status }: NonNullable<ReturnType<typeof webhookCodeOf>>,
  errors: DomainError["errors"],
) => {
  const details = errors.map(({ field, message }) => ({ field, message }))
  const message =
    code === "validation_error" && details.length !== 1 ? "Validation failed" : (details[0]?.message ?? "")
  ctx.status = status
  ctx.body = { error: { code, message, details } }
}

/**
 * Renders the webhook routes' own errors (validation and not found, from the engine) in their
 * shape; anything else goes on to the general rendering (`{ errors: [...] }`): a read-only key's
 * 403, rate limits, unreadable bodies, and the 401 of authentication, which runs before any route.
 *
 * @example
 * declare const handler: AppMiddleware
 * chain.push(webhookErrorRendering, handler)
 */
export const webhookErrorRendering: AppMiddleware = async (ctx: AppContext, next) => {
  try {
    await next()
  } catch (error) {
    const mapped = isDomainError(error) ? webhookCodeOf(error) : undefined
    if (mapped === undefined || !isDomainError(error)) throw error
    renderWebhookError(ctx, mapped, error.errors)
  }
}

/**
 * Runs the body reader `reader` of a webhook route, rendering the validation errors it finds
 * itself (422: a field holding the NUL character) in the webhook shape, like the engine's. Its
 * other refusals (400 malformed JSON, 413, 415) keep the general shape, as does whatever the rest
 * of the chain throws through it.
 *
 * @example
 * chain.push(webhookBodyValidation(jsonBody()))
 */
export const webhookBodyValidation =
  (reader: AppMiddleware): AppMiddleware =>
  async (ctx, next) => {
    let read = false
    try {
      await reader(ctx, () => {
        read = true
        return next()
      })
    } catch (error) {
      if (read || !(error instanceof HttpError) || error.status !== 422) throw error
      renderWebhookError(ctx, { code: "validation_error", status: 422 }, error.errors)
    }
  }

/**
 * The spec's `meta` of the webhook endpoint list: current_page, total_pages, total_count, per_page.
 *
 * @example
 * declare const page: Page<WebhookEndpoint>
 * webhookPageMeta(page) // { current_page: 1, total_pages: 1, total_count: 3, per_page: 25 }
 */
export const webhookPageMeta = (page: Page<unknown>) => ({
  current_page: page.meta.current_page,
  total_pages: page.meta.total_pages,
  total_count: page.meta.total_records,
  per_page: page.meta.per_page,
})

/** The `meta` of the webhook endpoint list, for the OpenAPI document. */
export const WebhookPageMeta = Schema.Struct({
  current_page: Schema.Int.pipe(Schema.positive()),
  total_pages: Schema.Int.pipe(Schema.positive()),
  total_count: Schema.Int.pipe(Schema.nonNegative()),
  per_page: Schema.Int.pipe(Schema.positive()),
}).annotations({ identifier: "WebhookPageMeta" })
