import fc from "fast-check"
import { expect, it } from "vitest"
import { randomToken } from "./random-token.ts"

it("has the asked length, only [0-9a-z], and does not repeat", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 64 }), (length) => {
      const token = randomToken(length)
      expect(token).toMatch(new RegExp(`^[0-9a-z]{${length}}$`))
    }),
  )
  const many = new Set(Array.from({ length: 1000 }, () => randomToken(24)))
  expect(many.size).toBe(1000)
})
