import type { components } from "./generated/api.ts"

/** One problem with one request field, as the API's error bodies list them. */
export interface FieldProblem {
  /** The request field, dotted for nested ones, or `base`/`body`/`path`/`token`. */
  readonly field: string
  /** What is wrong with it, in words a person can read. */
  readonly message: string
}

/** The `code` of the webhook routes' error body: `validation_error` (422) or `not_found` (404). */
export type WebhookErrorCode = components["schemas"]["WebhookErrorResponse"]["error"]["code"]

type Json = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null

/** `{ field, message }` pairs of a body's list; an entry without a field is about the request as a whole (`base`). */
const problemsOf = (list: unknown): Array<FieldProblem> =>
  Array.isArray(list)
    ? list.filter(isObject).map((e) => ({
        field: typeof e.field === "string" ? e.field : "base",
        message: typeof e.message === "string" ? e.message : String(e.message),
      }))
    : []

/** What an error body says, whichever of the API's two shapes it has; nothing when it has neither. */
const readBody = (text: string): { errors: Array<FieldProblem>; code?: WebhookErrorCode; summary?: string } => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON (a proxy's page, say): the status and the raw body say what happened.
    return { errors: [] }
  }
  if (!isObject(body)) return { errors: [] }
  // The webhook endpoint routes' shape: { error: { code, message, details: [{ field, message }] } }.
  if (isObject(body.error)) {
    const { code, message, details } = body.error
    return {
      errors: problemsOf(details),
      ...(typeof code === "string" ? { code: code as WebhookErrorCode } : {}),
      ...(typeof message === "string" ? { summary: message } : {}),
    }
  }
  // Every other route's shape: { errors: [{ field, message }] }.
  return { errors: problemsOf(body.errors) }
}

/**
 * An answer of the API that is not a success, whatever its body's shape: the general
 * `{ errors: [{ field, message }] }`, the webhook endpoint routes'
 * `{ error: { code, message, details } }` (their `details` become `errors`, their `code` is
 * `code`), or something else entirely (a proxy's page), kept as `body`.
 *
 * @example
 * declare const client: PaymentsClient, body: components["schemas"]["CompanyCreate"]
 * try { await client.POST("/api/v1/companies", { body }) }
 * catch (error) { if (error instanceof PaymentsApiError) console.log(error.status, error.errors, error.body) }
 */
export class PaymentsApiError extends Error {
  override readonly name = "PaymentsApiError"
  constructor(
    /** The HTTP status of the answer. */
    readonly status: number,
    /** The problems the body lists (`errors`, or the webhook shape's `details`); empty when it lists none. */
    readonly errors: ReadonlyArray<FieldProblem>,
    /** The answer's `X-Request-Id`, to quote when asking the operator about it. */
    readonly requestId: string | undefined,
    /** The body exactly as it came, for what the fields above do not carry. */
    readonly body: string,
    /** The webhook endpoint routes' `error.code`; undefined for the other routes' shape. */
    readonly code: WebhookErrorCode | undefined = undefined,
    summary?: string,
  ) {
    const listed = errors.map((e) => `${e.field}: ${e.message}`).join("; ")
    super(`${status}: ${listed || summary || "the API answered with an error"}`)
  }

  /** The error an answer stands for, its body read in whichever shape the API wrote it. */
  static async of(response: Response): Promise<PaymentsApiError> {
    const text = await response.text()
    const { errors, code, summary } = readBody(text)
    return new PaymentsApiError(
      response.status,
      errors,
      response.headers.get("X-Request-Id") ?? undefined,
      text,
      code,
      summary,
    )
  }
}
