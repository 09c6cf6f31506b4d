import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decimal } from "../money/decimal.ts"
import { replayableText, replayedValue } from "./replayable-value.ts"

/** Plain data as transactions return it: JSON values, bigints, dates, undefined, and keys that look like tags. */
const plainData = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.string(),
    fc.bigInt(),
    fc.date({ noInvalidDate: true }),
    fc.array(fc.oneof(tie("value"), fc.constant(undefined)), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom("$bigint", "$date", "$undefined", "$object", "__proto__")),
      tie("value"),
      { maxKeys: 4, noNullPrototype: true },
    ),
  ),
})).value

const roundTrip = (value: unknown) => replayedValue(Either.getOrThrow(replayableText(value)))

describe("replayableText and replayedValue", () => {
  it("give back a value equal to the one kept, whatever plain data it is", () => {
    fc.assert(
      fc.property(plainData, (value) => {
        expect(roundTrip(value)).toStrictEqual(value)
      }),
    )
  })

  it("keep a Decimal's bigint units and a record's optional fields left out", () => {
    const row = { amount: decimal(105n, 2), note: undefined, at: new Date("2026-01-02T03:04:05.678Z") }
    expect(roundTrip(row)).toStrictEqual({ amount: { units: 105n, scale: 2 }, at: row.at })
  })

  it("refuse what a retry could not be handed back, naming where it is", () => {
    const clock = { now: () => new Date() }
    expect(replayableText({ request: { clock } })).toEqual(
      Either.left({ path: "result.request.clock.now", reason: "function" }),
    )
    expect(replayableText([new Map()])).toEqual(Either.left({ path: "result[0]", reason: "instance of Map" }))
    expect(replayableText({ rate: Number.NaN })).toEqual(Either.left({ path: "result.rate", reason: "number NaN" }))
    expect(replayableText(new Date(Number.NaN))).toEqual(Either.left({ path: "result", reason: "an invalid Date" }))
  })
})
