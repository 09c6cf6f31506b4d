import fc from "fast-check"
import { expect, it } from "vitest"
import { isoDay, isoTime } from "./iso-time.ts"

const anyDate = fc.date({ noInvalidDate: true })

it("writes every date a Date holds as toISOString does", () => {
  fc.assert(
    fc.property(anyDate, (date) => {
      const text = date.toISOString()
      expect(isoTime(date)).toBe(text)
      expect(isoDay(date)).toBe(text.slice(0, text.indexOf("T")))
    }),
    {
      examples: [
        [new Date("2026-01-02T03:04:05.006Z")],
        [new Date("2026-12-31T23:59:59.999Z")],
        [new Date("1000-01-01T00:00:00.000Z")],
        [new Date("0999-12-31T23:59:59.999Z")],
        [new Date("9999-12-31T23:59:59.999Z")],
        [new Date("+010000-01-01T00:00:00.000Z")],
        [new Date("1970-01-01T00:00:00.010Z")],
      ],
    },
  )
})

it("throws for an invalid date, as toISOString does", () => {
  expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError)
  expect(() => isoDay(new Date(Number.NaN))).toThrow(RangeError)
})
