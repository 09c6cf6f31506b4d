import fc from "fast-check"
import { expect, it } from "vitest"
import { expectedCompletionDate, settlementBusinessDays } from "./expected-completion.ts"

const dayOf = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay()

it("follows the sandbox's settlement days", () => {
  const friday = new Date("2026-11-20T15:00:00Z")
  expect(expectedCompletionDate(friday, "wire")).toBe("2026-11-20")
  expect(expectedCompletionDate(friday, "ach")).toBe("2026-11-23")
  expect(expectedCompletionDate(friday, "swift")).toBe("2026-11-24")
  const saturday = new Date("2026-11-21T09:00:00Z")
  expect(expectedCompletionDate(saturday, "wire")).toBe("2026-11-23")
  expect(expectedCompletionDate(saturday, "sepa")).toBe("2026-11-24")
})

it("always lands on a weekday, never before the quote, at most the method's days plus a weekend later", () => {
  const method = fc.constantFrom(...Object.keys(settlementBusinessDays))
  fc.assert(
    fc.property(
      fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
      method,
      (at, m) => {
        const result = expectedCompletionDate(at, m)
        expect([1, 2, 3, 4, 5]).toContain(dayOf(result))
        const start = at.toISOString().slice(0, 10)
        expect(result >= start).toBe(true)
        const days = (Date.parse(result) - Date.parse(start)) / 86_400_000
        expect(days).toBeLessThanOrEqual((settlementBusinessDays[m] ?? 1) + 4)
      },
    ),
  )
})

it("writes the day as toISOString does, for every year a Date holds", () => {
  fc.assert(
    fc.property(
      fc.date({ min: new Date(-8.64e15 + 864e6), max: new Date(8.64e15 - 864e6), noInvalidDate: true }),
      fc.constantFrom(...Object.keys(settlementBusinessDays)),
      (at, method) => {
        const result = expectedCompletionDate(at, method)
        const day = Date.parse(result)
        expect(new Date(day).toISOString()).toBe(`${result}T00:00:00.000Z`)
        const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())
        expect((day - start) / 86_400_000).toBeGreaterThanOrEqual(0)
        expect((day - start) / 86_400_000).toBeLessThanOrEqual((settlementBusinessDays[method] ?? 1) + 4)
      },
    ),
    {
      examples: [
        [new Date("2026-11-30T10:00:00Z"), "ach"],
        [new Date("0999-12-31T10:00:00Z"), "wire"],
        [new Date("9999-12-31T10:00:00Z"), "swift"],
      ],
    },
  )
})
