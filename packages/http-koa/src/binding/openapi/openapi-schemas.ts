import { Schema } from "effect"

/**
 * One problem with one field, as every error body lists them.
 *
 * @example
 * Schema.decodeUnknownSync(FieldError)({ field: "name", message: "Name is required" })
 */
export const FieldError = Schema.Struct({
  field: Schema.String.annotations({
    description: "the request field, dotted for nested ones, or base/body/path/token",
  }),
  message: Schema.String,
}).annotations({ identifier: "FieldError" })

/**
 * The body of every error answer.
 *
 * @example
 * Schema.decodeUnknownSync(ErrorResponse)({ errors: [{ field: "path", message: "Not found" }] })
 */
export const ErrorResponse = Schema.Struct({ errors: Schema.Array(FieldError) }).annotations({
  identifier: "ErrorResponse",
})

const Count = Schema.Int.pipe(Schema.nonNegative())
const PageNumber = Schema.Int.pipe(Schema.positive())

/**
 * The `meta` object of a paged list.
 *
 * @example
 * Schema.Struct({ data: Schema.Array(Company), meta: PageMeta, links: PageLinks })
 */
export const PageMeta = Schema.Struct({
  total_records: Count,
  total_pages: PageNumber.annotations({ description: "at least 1: an empty list has one, empty, page" }),
  current_page: PageNumber,
  per_page: PageNumber,
}).annotations({ identifier: "PageMeta" })

const PageLink = Schema.String.annotations({ description: "relative URL: path and query" })

/**
 * The `links` object of a paged list: relative URLs, `prev` and `next` null at the ends.
 *
 * @example
 * Schema.Struct({ data: Schema.Array(Company), meta: PageMeta, links: PageLinks })
 */
export const PageLinks = Schema.Struct({
  first: PageLink,
  prev: Schema.NullOr(PageLink),
  next: Schema.NullOr(PageLink),
  last: PageLink,
}).annotations({ identifier: "PageLinks" })
