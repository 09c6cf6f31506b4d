/*
 * What a caller of the Promise facade sees of the engine's refusals: plain interfaces, so that the
 * main entry's declarations name no effect type. The error classes themselves (`./errors.ts`,
 * Effect's tagged errors) are what the engine raises; each satisfies {@link DomainError} here.
 */

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

/** The tag of each domain error class, for `Effect.catchTag` and `switch`. */
export type DomainErrorTag =
  | "NotFound"
  | "Invalid"
  | "Conflict"
  | "Forbidden"
  | "Unauthenticated"
  | "RateLimited"
  | "ProviderFailure"

/**
 * Any error the engine raises on purpose, as a caller of the Promise facade sees it: a promise
 * rejects with the error itself, which carries its tag, its kind and every failing field.
 * Everything else is a defect.
 */
export interface DomainError extends Error {
  readonly _tag: DomainErrorTag
  readonly kind: ErrorKind
  readonly errors: ReadonlyArray<FieldError>
}

const domainTags: ReadonlySet<unknown> = new Set<DomainErrorTag>([
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
