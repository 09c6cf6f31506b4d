import fc from "fast-check"
import { expect, it } from "vitest"
import { maskAccountNumber } from "./account-number-mask.ts"

it("shows at most four characters, never more than half, always the end of the number", () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[0-9A-Z]{1,34}$/), (number) => {
      const mask = maskAccountNumber(number)
      expect(mask.startsWith("****")).toBe(true)
      const shown = mask.slice(4)
      expect(shown.length).toBeLessThanOrEqual(4)
      expect(shown.length).toBeLessThanOrEqual(number.length / 2)
      expect(number.endsWith(shown)).toBe(true)
      if (number.length >= 8) expect(shown).toBe(number.slice(-4))
    }),
  )
})

it("ignores spaces in grouped numbers", () => {
  expect(maskAccountNumber("GB82 WEST 1234 5698 7654 32")).toBe("****5432")
  expect(maskAccountNumber("1")).toBe("****")
})
