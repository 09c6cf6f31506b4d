import { Data } from "effect"

/** One problem with one field of a request, as rendered in `errors[]`. */
export interface FieldError {
  readonly field: string
  readonly message: string
}

/** The resource does not exist, is deleted, or belongs to another company or workspace (404). */
export class NotFound extends Data.TaggedError("NotFound")<FieldError> {
  readonly status = 404
  get errors(): ReadonlyArray<FieldError> {
    return [{ field: this.field, message: this.message }]
  }
}

/**
 * The input is missing something (400) or breaks a rule (422). Carries every failing field at
 * once, so a client can fix a form in one round trip.
 */
export class Invalid extends Data.TaggedError("Invalid")<{
  readonly status: 400 | 415 | 422
  readonly errors: ReadonlyArray<FieldError>
}> {
  override get message(): string {
    return this.errors.map((e) => `${e.field}: ${e.message}`).join("; ")
  }
  static one(status: 400 | 415 | 422, field: string, message: string): Invalid {
    return new Invalid({ status, errors: [{ field, message }] })
  }
}

/** The request collides with another one or with the resource's state (409). */
export class Conflict extends Data.TaggedError("Conflict")<FieldError> {
  readonly status = 409
  get errors(): ReadonlyArray<FieldError> {
    return [{ field: this.field, message: this.message }]
  }
}

/** Valid credentials without permission, or a rule that refuses the action outright (403). */
export class Forbidden extends Data.TaggedError("Forbidden")<FieldError> {
  readonly status = 403
  get errors(): ReadonlyArray<FieldError> {
    return [{ field: this.field, message: this.message }]
  }
}

/** Missing or invalid credentials (401). */
export class Unauthorized extends Data.TaggedError("Unauthorized")<FieldError> {
  readonly status = 401
  get errors(): ReadonlyArray<FieldError> {
    return [{ field: this.field, message: this.message }]
  }
}

/**
 * The payment provider or bank linker failed or did not answer (500, as the spec has it for FX
 * failures). Nothing was written; the request can be retried.
 */
export class ProviderFailure extends Data.TaggedError("ProviderFailure")<FieldError> {
  readonly status = 500
  get errors(): ReadonlyArray<FieldError> {
    return [{ field: this.field, message: this.message }]
  }
}

/** Any error the engine raises on purpose; everything else is a defect. */
export type DomainError = NotFound | Invalid | Conflict | Forbidden | Unauthorized | ProviderFailure

const domainTags = new Set(["NotFound", "Invalid", "Conflict", "Forbidden", "Unauthorized", "ProviderFailure"])

/**
 * Tells a domain error from a defect, for callers of the Promise facade.
 *
 * @example
 * try { await engine.companies.get(ws, id) } catch (e) { if (isDomainError(e)) res.status(e.status) }
 */
export const isDomainError = (value: unknown): value is DomainError =>
  typeof value === "object" && value !== null && domainTags.has((value as { _tag?: string })._tag ?? "")

/** The spec's messages, kept next to the rules that raise them. */
export const messages = {
  companyNotFound: "Company not found or not accessible in this workspace",
  entityNotFound: "Entity not found or not accessible in this company",
  recipientNotFound: "Recipient not found or not accessible in this workspace",
  invalidToken: "Missing or invalid token",
  invalidApiKey: "Invalid API key or secret",
  readOnlyKey: "API key does not have permission for this action",
  companyHasEntity: "This company already has an existing entity",
  alreadyTaken: "has already been taken",
  cantBeBlank: "can't be blank",
  entityUpdateIntegration: "Cannot update entity with active payment integration",
  entityDeleteIntegration: "Cannot delete entity with active payment integration",
  companyUpdateIntegration: "Company cannot be updated once it has active payment integrations",
  companyDeleteIntegration: "Company cannot be deleted once it has active payment integrations",
  companyNotApiCreated: "This company cannot be deleted. Only companies created via API are eligible for deletion",
  idempotencyMismatch: "Idempotency key reused with different parameters",
  idempotencyInFlight: "A request with this idempotency key is in progress",
} as const
