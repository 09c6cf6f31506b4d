import { Data } from "effect"
import type { ErrorKind, FieldError } from "./domain-error.ts"

export {
  type DomainErrorTag,
  type ErrorKind,
  type FieldError,
  isDomainError,
  messages,
} from "./domain-error.ts"

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

/**
 * Any error the engine raises on purpose, as its classes; everything else is a defect. Each is a
 * `DomainError` of `./domain-error.ts`, the interface the main entry names.
 */
export type DomainError = NotFound | Invalid | Conflict | Forbidden | Unauthenticated | RateLimited | ProviderFailure
