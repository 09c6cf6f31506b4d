import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { minorUnits } from "../money/currencies.ts"
import { decimal, formatDecimal } from "../money/decimal.ts"
import {
  checkedFeeSchedule,
  defaultFeeSchedule,
  type FeeRule,
  type FeeSchedule,
  feeRuleFor,
  feeScheduleProblems,
} from "./fee-schedule.ts"
import { priceQuote, rateScale } from "./quote-pricing.ts"

const withAch = (rule: FeeRule): FeeSchedule => ({ ...defaultFeeSchedule, methods: { ach: rule } })

describe("feeScheduleProblems", () => {
  it("finds nothing in the default schedule", () => {
    expect(feeScheduleProblems(defaultFeeSchedule)).toEqual([])
    expect(checkedFeeSchedule(defaultFeeSchedule)).toBe(defaultFeeSchedule)
  })

  it("names the path of each bad value", () => {
    const problems = (rule: FeeRule) => feeScheduleProblems(withAch(rule))
    expect(problems({ fixed: { USD: "abc" }, basisPoints: 0 })).toEqual([
      'feeSchedule.methods.ach.fixed.USD must be a decimal amount, got "abc"',
    ])
    expect(problems({ fixed: { USD: "" }, basisPoints: 0 })).toEqual([
      'feeSchedule.methods.ach.fixed.USD must be a decimal amount, got ""',
    ])
    expect(problems({ fixed: { USD: "-0.25" }, basisPoints: 0 })).toEqual([
      'feeSchedule.methods.ach.fixed.USD must not be negative, got "-0.25"',
    ])
    expect(problems({ fixed: { USD: "0.255", JPY: "1.5", BHD: "0.125" }, basisPoints: 0 })).toEqual([
      'feeSchedule.methods.ach.fixed.USD must have at most 2 decimals for USD, got "0.255"',
      'feeSchedule.methods.ach.fixed.JPY must have at most 0 decimals for JPY, got "1.5"',
    ])
    expect(problems({ fixed: { usd: "0.25", XYZ: "1" }, basisPoints: 0 })).toEqual([
      "feeSchedule.methods.ach.fixed.usd must be keyed by ISO 4217 currency codes in upper case",
      "feeSchedule.methods.ach.fixed.XYZ must be keyed by ISO 4217 currency codes in upper case",
    ])
    expect(problems({ fixed: {}, basisPoints: 2.5 })).toEqual([
      "feeSchedule.methods.ach.basisPoints must be a whole number of basis points from 0 to 10000, got 2.5",
    ])
    expect(feeScheduleProblems({ ...defaultFeeSchedule, other: { fixed: {}, basisPoints: -1 } })).toEqual([
      "feeSchedule.other.basisPoints must be a whole number of basis points from 0 to 10000, got -1",
    ])
    expect(feeScheduleProblems({ ...defaultFeeSchedule, fxMarginBasisPoints: 10_001 })).toEqual([
      "feeSchedule.fxMarginBasisPoints must be a whole number of basis points from 0 to 10000, got 10001",
    ])
  })

  it("accepts whole and exponent amounts within the minor units, and 0 to 10000 basis points", () => {
    expect(
      feeScheduleProblems(withAch({ fixed: { USD: "1", JPY: "100", BHD: "0.125" }, basisPoints: 10_000 })),
    ).toEqual([])
    expect(feeScheduleProblems(withAch({ fixed: { USD: "2.5e-1", EUR: "0.20" }, basisPoints: 0 }))).toEqual([])
  })

  it("refuses a schedule whose parts are not what TypeScript promised (JavaScript callers, parsed JSON)", () => {
    const loose = (value: unknown) => feeScheduleProblems(value as FeeSchedule)
    expect(loose({ ...defaultFeeSchedule, other: undefined })).toEqual([
      "feeSchedule.other must be a fee rule ({ fixed, basisPoints })",
    ])
    expect(loose({ ...defaultFeeSchedule, methods: { ach: { fixed: "0.25", basisPoints: 0 } } })).toEqual([
      "feeSchedule.methods.ach.fixed must be an object of amounts by currency code",
    ])
    expect(loose({ ...defaultFeeSchedule, methods: { ach: { fixed: { USD: 0.25 }, basisPoints: 0 } } })).toEqual([
      "feeSchedule.methods.ach.fixed.USD must be a decimal amount, got 0.25",
    ])
    expect(loose({ ...defaultFeeSchedule, methods: null })).toEqual([
      "feeSchedule.methods must be an object of fee rules by payment method",
    ])
  })

  it("is thrown as one RangeError by checkedFeeSchedule", () => {
    expect(() => checkedFeeSchedule(withAch({ fixed: { USD: "abc" }, basisPoints: 0.5 }))).toThrow(
      new RangeError(
        'feeSchedule.methods.ach.fixed.USD must be a decimal amount, got "abc"; ' +
          "feeSchedule.methods.ach.basisPoints must be a whole number of basis points from 0 to 10000, got 0.5",
      ),
    )
  })
})

const currencies = ["USD", "EUR", "GBP", "JPY", "BHD", "MXN"] as const
const textOf = ({ units, scale }: { units: bigint; scale: number }) => (scale === 0 ? `${units}` : `${units}e-${scale}`)
/** Fixed fees the check must accept: ISO codes, amounts of at most their minor units, written in either notation. */
const usableFixed = fc
  .subarray([...currencies])
  .chain((codes) =>
    fc.tuple(
      ...codes.map((code) =>
        fc
          .record({ units: fc.bigInt({ min: 0n, max: 10n ** 6n }), scale: fc.nat(minorUnits(code)) })
          .chain((amount) => fc.constantFrom(textOf(amount), formatDecimal(amount, minorUnits(code))))
          .map((text) => [code, text] as const),
      ),
    ),
  )
  .map((entries) => Object.fromEntries(entries))
const anyFixed = fc.dictionary(
  fc.oneof(fc.constantFrom(...currencies), fc.constantFrom("usd", "XYZ", "")),
  fc.oneof(
    fc.record({ units: fc.bigInt({ min: -100n, max: 10n ** 6n }), scale: fc.nat(4) }).map(textOf),
    fc.string(),
    fc.constantFrom("abc", "1.2.3", " 1", "NaN"),
  ),
)
const basisPoints = fc.oneof({ weight: 3, arbitrary: fc.nat(10_000) }, fc.integer(), fc.double())
const rule: fc.Arbitrary<FeeRule> = fc.record({
  fixed: fc.oneof({ weight: 3, arbitrary: usableFixed }, anyFixed),
  basisPoints,
})
const schedule: fc.Arbitrary<FeeSchedule> = fc.record({
  methods: fc.dictionary(fc.constantFrom("ach", "wire", "swift", "sepa"), rule, { maxKeys: 3 }),
  other: rule,
  fxMarginBasisPoints: basisPoints,
})

describe("a schedule the check accepts", () => {
  it("prices every quote without throwing", () => {
    let accepted = 0
    fc.assert(
      fc.property(
        schedule,
        fc.constantFrom("ach", "wire", "fps", "swift"),
        fc.constantFrom(...currencies),
        fc.constantFrom(...currencies),
        fc.constantFrom("net", "gross" as const),
        fc.bigInt({ min: 1n, max: 10n ** 11n }),
        (feeSchedule, method, source, target, strategy, units) => {
          if (feeScheduleProblems(feeSchedule).length > 0) return
          accepted += 1
          const result = priceQuote({
            amount: decimal(units, minorUnits(source)),
            instructedCurrency: source,
            sourceCurrency: source,
            targetCurrency: target,
            strategy,
            rate: source === target ? decimal(1n) : decimal(123_456_789n, rateScale),
            fee: feeRuleFor(feeSchedule, method),
          })
          expect(Either.isEither(result)).toBe(true)
        },
      ),
      { numRuns: 500 },
    )
    // the generator must reach accepted schedules often enough for the property to mean something
    expect(accepted).toBeGreaterThan(50)
  })

  it("prices with its fixed fee, never silently with none", () => {
    const bad = { ach: { fixed: { USD: "abc" }, basisPoints: 0 } }
    const price = () =>
      priceQuote({
        amount: decimal(10_000n, 2),
        instructedCurrency: "USD",
        sourceCurrency: "USD",
        targetCurrency: "USD",
        strategy: "net",
        rate: decimal(1n),
        fee: feeRuleFor({ ...defaultFeeSchedule, methods: bad }, "ach"),
      })
    expect(price).toThrow('Fixed fee for USD is not a decimal amount: "abc"')
  })
})
