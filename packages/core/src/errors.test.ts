import { describe, expect, it } from "vitest"
import { Conflict, Forbidden, Invalid, isDomainError, NotFound, ProviderFailure, Unauthorized } from "./errors.ts"

describe("domain errors", () => {
  it("carry status, errors and a readable message", () => {
    const invalid = new Invalid({ status: 422, errors: [{ field: "name", message: "can't be blank" }] })
    expect(invalid).toBeInstanceOf(Error)
    expect(invalid.message).toBe("name: can't be blank")
    const cases = [
      [new NotFound({ field: "id", message: "gone" }), 404],
      [new Conflict({ field: "status", message: "busy" }), 409],
      [new Forbidden({ field: "base", message: "no" }), 403],
      [new Unauthorized({ field: "token", message: "who" }), 401],
      [new ProviderFailure({ field: "base", message: "down" }), 500],
    ] as const
    for (const [error, status] of cases) {
      expect(error.status).toBe(status)
      expect(error.errors).toEqual([{ field: error.field, message: error.message }])
      expect(isDomainError(error)).toBe(true)
    }
  })

  it("are told apart from defects", () => {
    expect(isDomainError(new Error("boom"))).toBe(false)
    expect(isDomainError({ _tag: "Other" })).toBe(false)
    expect(isDomainError(null)).toBe(false)
  })
})
