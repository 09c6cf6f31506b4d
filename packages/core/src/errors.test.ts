import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import {
  Conflict,
  Forbidden,
  Invalid,
  isDomainError,
  NotFound,
  ProviderFailure,
  RateLimited,
  Unauthenticated,
} from "./errors.ts"

describe("domain errors", () => {
  it("carry a kind, errors and a readable message, and no HTTP status", () => {
    const invalid = new Invalid({ kind: "invalid", errors: [{ field: "name", message: "can't be blank" }] })
    expect(invalid).toBeInstanceOf(Error)
    expect(invalid.message).toBe("name: can't be blank")
    expect(Invalid.missing("status", "Status is required")).toMatchObject({
      kind: "missing",
      errors: [{ field: "status", message: "Status is required" }],
    })
    expect(Invalid.rule("seconds", "too many")).toMatchObject({
      kind: "invalid",
      errors: [{ field: "seconds", message: "too many" }],
    })
    const cases = [
      [new NotFound({ field: "id", message: "gone" }), "not_found"],
      [new Conflict({ field: "status", message: "busy" }), "conflict"],
      [new Forbidden({ field: "base", message: "no" }), "forbidden"],
      [new Unauthenticated({ field: "token", message: "who" }), "unauthenticated"],
      [new RateLimited({ field: "base", message: "slow down" }), "rate_limited"],
      [new ProviderFailure({ field: "base", message: "down" }), "provider_failure"],
    ] as const
    for (const [error, kind] of cases) {
      expect(error).toBeInstanceOf(Error)
      expect(error.kind).toBe(kind)
      expect(error.message).toBe(error.errors[0]?.message)
      expect(error.errors).toEqual([{ field: error.field, message: error.message }])
      expect(isDomainError(error)).toBe(true)
      expect("status" in error).toBe(false)
    }
  })

  it("are caught by tag in an effect", () => {
    const caught = Effect.runSync(
      Effect.fail(new NotFound({ field: "id", message: "gone" })).pipe(
        Effect.catchTag("NotFound", (e) => Effect.succeed(e.field)),
      ),
    )
    expect(caught).toBe("id")
  })

  it("are told apart from defects", () => {
    expect(isDomainError(new Error("boom"))).toBe(false)
    expect(isDomainError({ _tag: "Other" })).toBe(false)
    expect(isDomainError(null)).toBe(false)
  })
})
