import { Data } from "effect"

/** One problem with one field of a request, as rendered in `errors[]`. */
export interface FieldError {
  readonly field: string
  readonly message: string
}

/**
 * What went wrong, in words every binding understands. Core names no HTTP status: the HTTP
 * binding maps each kind to its status in one table, and a GraphQL mutation or a hosted page
 * maps them its own way.
 *
 * - `missing`: the request lacks something it must have, or is not in the shape asked for
 *   (a body that is not an object, a query parameter that cannot be read)
 * - `invalid`: the request is well formed but a value breaks a rule
 * - `not_found`: the resource does not exist, is deleted, or belongs to someone else
 * - `conflict`: the request collides with another one in flight or with the resource's state
 * - `forbidden`: the caller is known but may not do this, or a rule refuses it outright
 * - `unauthenticated`: missing or wrong credentials
 * - `rate_limited`: too many requests for now
 * - `provider_failure`: the payment provider or bank linker failed; nothing was written
 */
export type ErrorKind =
  | "missing"
  | "invalid"
  | "not_found"
  | "conflict"
  | "forbidden"
  | "unauthenticated"
  | "rate_limited"
  | "provider_failure"

/**
 * A domain error about one field. Subclasses name their tag and kind only, so `errors` is
 * written once. A plain abstract class (not a class factory) keeps declaration emit working.
 */
export abstract class SingleFieldError extends Data.Error<FieldError> {
  /** Tells the error classes apart, for `Effect.catchTag`. */
  abstract readonly _tag: string
  /** What went wrong, for a binding to map to its own codes. */
  abstract readonly kind: ErrorKind
  /** The one field and message, in the shape every domain error renders. */
  get errors(): ReadonlyArray<FieldError> {
    return [{ field: this.field, message: this.message }]
  }
}

/** The resource does not exist, is deleted, or belongs to another company or workspace. */
export class NotFound extends SingleFieldError {
  readonly _tag = "NotFound"
  readonly kind = "not_found"
}

/**
 * The input is missing something (kind `missing`) or breaks a rule (kind `invalid`). Carries
 * every failing field at once, so a client can fix a form in one round trip.
 *
 * @example
 * Effect.fail(Invalid.missing("status", "Status is required"))
 * Effect.fail(Invalid.rule("payment_quote_id", "Quote has expired"))
 */
export class Invalid extends Data.TaggedError("Invalid")<{
  readonly kind: "missing" | "invalid"
  readonly errors: ReadonlyArray<FieldError>
}> {
  override get message(): string {
    return this.errors.map((e) => `${e.field}: ${e.message}`).join("; ")
  }
  /** One field that is absent, or not in the shape asked for. */
  static missing(field: string, message: string): Invalid {
    return new Invalid({ kind: "missing", errors: [{ field, message }] })
  }
  /** One field whose value breaks a rule. */
  static rule(field: string, message: string): Invalid {
    return new Invalid({ kind: "invalid", errors: [{ field, message }] })
  }
}

/** The request collides with another one or with the resource's state. */
export class Conflict extends SingleFieldError {
  readonly _tag = "Conflict"
  readonly kind = "conflict"
}

/** Valid credentials without permission, or a rule that refuses the action outright. */
export class Forbidden extends SingleFieldError {
  readonly _tag = "Forbidden"
  readonly kind = "forbidden"
}

/** Missing or invalid credentials. */
export class Unauthenticated extends SingleFieldError {
  readonly _tag = "Unauthenticated"
  readonly kind = "unauthenticated"
}

/** Too many requests in the current window; the client may retry later. */
export class RateLimited extends SingleFieldError {
  readonly _tag = "RateLimited"
  readonly kind = "rate_limited"
}

/**
 * The payment provider or bank linker failed or did not answer. Nothing was written; the
 * request can be retried.
 */
export class ProviderFailure extends SingleFieldError {
  readonly _tag = "ProviderFailure"
  readonly kind = "provider_failure"
}

/** Any error the engine raises on purpose; everything else is a defect. */
export type DomainError = NotFound | Invalid | Conflict | Forbidden | Unauthenticated | RateLimited | ProviderFailure

const domainTags: ReadonlySet<unknown> = new Set<DomainError["_tag"]>([
  "NotFound",
  "Invalid",
  "Conflict",
  "Forbidden",
  "Unauthenticated",
  "RateLimited",
  "ProviderFailure",
])

/**
 * Tells a domain error from a defect, for callers of the Promise facade.
 *
 * @example
 * try { await engine.companies.get(actor, cid) } catch (e) { if (isDomainError(e)) console.log(e.kind, e.errors) }
 */
export const isDomainError = (value: unknown): value is DomainError =>
  typeof value === "object" && value !== null && "_tag" in value && domainTags.has(value._tag)

/** The spec's messages, kept next to the rules that raise them. */
export const messages = {
  companyNotFound: "Company not found or not accessible in this workspace",
  entityNotFound: "Entity not found or not accessible in this company",
  recipientNotFound: "Recipient not found or not accessible in this workspace",
  invalidToken: "Missing or invalid token",
  invalidApiKey: "Invalid API key or secret",
  apiKeyNotFound: "API key not found",
  apiKeyRevoked: "API key is revoked",
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
