import { Effect, Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { CompanyCreate } from "../../model/company.ts"
import { EntityCreate, EntityUpdate } from "../../model/entity.ts"
import { PaymentListQuery } from "../../model/payment.ts"
import { PaymentBatchFields } from "../../model/payment-batch.ts"
import { RecipientCreate } from "../../model/recipient.ts"
import { maxJsonDepth } from "../../rules/json-depth.ts"
import { decodeBody, decodeOptionallyWrapped, decodeQuery } from "./decode-input.ts"

const failure = <A, I>(schema: Schema.Schema<A, I>, body: unknown) => {
  const result = Effect.runSync(Effect.either(decodeBody(schema, body)))
  if (Either.isRight(result)) throw new Error("expected a failure")
  return { kind: result.left.kind, errors: result.left.errors }
}

describe("decodeBody", () => {
  it("reports every missing field at once as missing, with the spec's messages", () => {
    expect(failure(EntityCreate, {})).toEqual({
      kind: "missing",
      errors: [
        { field: "name", message: "Entity name is required" },
        { field: "country_alpha2", message: "Country alpha2 code is required" },
      ],
    })
    expect(failure(RecipientCreate, {})).toEqual({
      kind: "missing",
      errors: [{ field: "name", message: "Name is required" }],
    })
  })

  it("answers missing when a field is missing even if another is wrong", () => {
    expect(failure(CompanyCreate, { name: 1, country: "US" })).toEqual({
      kind: "missing",
      errors: [
        { field: "name", message: "must be a string" },
        { field: "default_currency", message: "Default currency is required" },
      ],
    })
  })

  it("answers invalid with the field for wrong values", () => {
    expect(failure(EntityUpdate, { name: "   " })).toEqual({
      kind: "invalid",
      errors: [{ field: "name", message: "can't be blank" }],
    })
    expect(failure(CompanyCreate, { name: "Acme", country: "us", default_currency: "XXY" })).toEqual({
      kind: "invalid",
      errors: [
        { field: "country", message: "Invalid country code" },
        { field: "default_currency", message: "Invalid currency code" },
      ],
    })
    expect(failure(RecipientCreate, { name: "Ann", email: "nope" }).errors).toEqual([
      { field: "email", message: "is not a valid email address" },
    ])
  })

  it("refuses a body that is not an object", () => {
    for (const body of [null, [], "x", 3, true]) {
      expect(failure(CompanyCreate, body)).toEqual({
        kind: "missing",
        errors: [{ field: "body", message: "Body must be a JSON object" }],
      })
    }
  })

  it("treats undefined properties as absent", () => {
    expect(Effect.runSync(decodeBody(EntityUpdate, { name: undefined, country_alpha2: "FR" }))).toEqual({
      country_alpha2: "FR",
    })
    expect(failure(EntityCreate, { name: undefined, country_alpha2: "FR" })).toEqual({
      kind: "missing",
      errors: [{ field: "name", message: "Entity name is required" }],
    })
  })

  it("treats undefined properties as absent at every depth, in arrays too, and leaves the body as it was", () => {
    const Items = Schema.Struct({
      items: Schema.Array(Schema.Struct({ a: Schema.optionalWith(Schema.String, { exact: true }), b: Schema.Number })),
    })
    const body = { items: [{ b: 1 }, { a: undefined, b: 2 }, { a: "x", b: 3 }], extra: undefined }
    expect(Effect.runSync(decodeBody(Items, body))).toEqual({ items: [{ b: 1 }, { b: 2 }, { a: "x", b: 3 }] })
    expect(body).toEqual({ items: [{ b: 1 }, { a: undefined, b: 2 }, { a: "x", b: 3 }], extra: undefined })
    expect(Object.keys(body.items[1] as object)).toEqual(["a", "b"])
  })

  it("refuses a body nested deeper than the limit, wherever the deepest value is", () => {
    const nested = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { a: nested(depth - 1, leaf) })
    const tooDeep = {
      kind: "missing",
      errors: [{ field: "body", message: `JSON is nested too deeply (at most ${maxJsonDepth} levels)` }],
    }
    for (const leaf of [1, undefined, [1]]) {
      expect(failure(CompanyCreate, { name: "Acme", deep: nested(maxJsonDepth, leaf) })).toEqual(tooDeep)
      expect(failure(CompanyCreate, { name: "Acme", list: [[nested(maxJsonDepth - 1, leaf)]] })).toEqual(tooDeep)
    }
    expect(failure(CompanyCreate, { name: "Acme", deep: nested(maxJsonDepth - 1, 1) }).errors).toEqual([
      { field: "country", message: "Country is required" },
      { field: "default_currency", message: "Default currency is required" },
    ])
  })

  it("decodes a valid body and ignores unknown fields", () => {
    const body = { name: "Acme", country: "US", default_currency: "USD", extra: true }
    expect(Effect.runSync(decodeBody(CompanyCreate, body))).toEqual({
      name: "Acme",
      country: "US",
      default_currency: "USD",
    })
  })
})

describe("decodeQuery", () => {
  const queryFailure = (query: unknown) => {
    const result = Effect.runSync(Effect.either(decodeQuery(PaymentListQuery, query)))
    if (Either.isRight(result)) throw new Error("expected a failure")
    return { kind: result.left.kind, errors: result.left.errors }
  }

  it("decodes the payment filters, ignoring paging and unknown parameters", () => {
    expect(
      Effect.runSync(
        decodeQuery(PaymentListQuery, { status: "completed", payment_batch_id: "pb_1", page: "2", x: "y" }),
      ),
    ).toEqual({ status: "completed", payment_batch_id: "pb_1" })
    expect(Effect.runSync(decodeQuery(PaymentListQuery, {}))).toEqual({})
  })

  it("answers a wrong parameter as a bad request, the first one only, with the spec's messages", () => {
    for (const status of ["done", "COMPLETED", "", ["pending", "failed"]]) {
      expect(queryFailure({ status })).toEqual({
        kind: "missing",
        errors: [{ field: "status", message: "Invalid status" }],
      })
    }
    expect(queryFailure({ payment_batch_id: ["a", "b"] })).toEqual({
      kind: "missing",
      errors: [{ field: "payment_batch_id", message: "must be a string" }],
    })
    expect(queryFailure({ status: "done", payment_batch_id: ["a", "b"] }).errors).toEqual([
      { field: "status", message: "Invalid status" },
    ])
  })
})

describe("decodeOptionallyWrapped", () => {
  const run = (body: unknown) =>
    Effect.runSync(Effect.either(decodeOptionallyWrapped("payment_batch", PaymentBatchFields, body)))

  it("decodes no body, no wrapper and an empty wrapper alike, and the fields under the wrapper", () => {
    for (const body of [undefined, null, {}, { payment_batch: {} }, { payment_batch: null }]) {
      expect(run(body)).toEqual(Either.right({}))
    }
    expect(run({ payment_batch: { label: "May" } })).toEqual(Either.right({ label: "May" }))
  })

  it("refuses a body that is not an object (`missing`) and a wrapper that is not one (`invalid`), naming bare fields", () => {
    const refusal = (body: unknown) => {
      const result = run(body)
      if (Either.isRight(result)) throw new Error("expected a failure")
      return { kind: result.left.kind, errors: result.left.errors }
    }
    expect(refusal([1])).toEqual({
      kind: "missing",
      errors: [{ field: "body", message: "Body must be a JSON object" }],
    })
    expect(refusal({ payment_batch: 5 })).toEqual({
      kind: "invalid",
      errors: [{ field: "payment_batch", message: "must be an object" }],
    })
    expect(refusal({ payment_batch: { label: 7 } })).toEqual({
      kind: "invalid",
      errors: [{ field: "label", message: "must be a string" }],
    })
  })
})
