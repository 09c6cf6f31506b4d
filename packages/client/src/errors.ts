/** One problem with one request field, as the API's error bodies list them. */
export interface FieldProblem {
  /** The request field, dotted for nested ones, or `base`/`body`/`path`/`token`. */
  readonly field: string
  /** What is wrong with it, in words a person can read. */
  readonly message: string
}

/**
 * An answer of the API that is not a success: its status and the `errors` of its body.
 *
 * @example
 * declare const client: PaymentsClient, body: components["schemas"]["CompanyCreate"]
 * try { await client.POST("/api/v1/companies", { body }) }
 * catch (error) { if (error instanceof PaymentsApiError) console.log(error.status, error.errors) }
 */
export class PaymentsApiError extends Error {
  override readonly name = "PaymentsApiError"
  constructor(
    /** The HTTP status of the answer. */
    readonly status: number,
    /** The API's `errors`; empty when the body had none (a proxy's answer, say). */
    readonly errors: ReadonlyArray<FieldProblem>,
    /** The answer's `X-Request-Id`, to quote when asking the operator about it. */
    readonly requestId: string | undefined,
  ) {
    super(
      `${status}: ${errors.length === 0 ? "the API answered with an error" : errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`,
    )
  }

  /** The error an answer stands for, its body read as the API's `{ errors }` when it is one. */
  static async of(response: Response): Promise<PaymentsApiError> {
    const text = await response.text()
    let errors: Array<FieldProblem> = []
    try {
      const body = JSON.parse(text) as { errors?: unknown }
      if (Array.isArray(body.errors)) {
        errors = body.errors.map((e: { field?: unknown; message?: unknown }) => ({
          field: String(e.field),
          message: String(e.message),
        }))
      }
    } catch {
      // Not JSON: the status alone says what happened.
    }
    return new PaymentsApiError(response.status, errors, response.headers.get("X-Request-Id") ?? undefined)
  }
}
