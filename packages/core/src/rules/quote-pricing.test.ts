import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { minorUnits } from "../money/currencies.ts"
import {
  add,
  compare,
  type Decimal,
  decimal,
  formatDecimal,
  multiply,
  roundHalfUp,
  significantScale,
  subtract,
} from "../money/decimal.ts"
import type { FeeRule } from "./fee-schedule.ts"
import { computeFee, customerRate, parseInstructedAmount, priceQuote, rateScale } from "./quote-pricing.ts"

const currencies = ["USD", "EUR", "GBP", "JPY", "BHD", "MXN"] as const
const currency = fc.constantFrom(...currencies)

const amountIn = (code: string) =>
  fc
    .bigInt({ min: 1n, max: 10n ** 9n * 10n ** BigInt(minorUnits(code)) })
    .map((units) => decimal(units, minorUnits(code)))

const rate = fc.bigInt({ min: 10n ** 4n, max: 10n ** 12n }).map((units) => decimal(units, rateScale)) // 0.0001 .. 10000
const feeRule: fc.Arbitrary<FeeRule> = fc.record({
  fixed: fc.dictionary(
    currency,
    fc.bigInt({ min: 0n, max: 5000n }).map((u) => formatDecimal(decimal(u, 2), 2)),
  ),
  basisPoints: fc.nat(500),
})

const pricing = fc
  .record({ source: currency, target: currency, rate, fee: feeRule, instructedIsSource: fc.boolean() })
  .chain((p) => {
    const instructedCurrency = p.instructedIsSource || p.source === p.target ? p.source : p.target
    return amountIn(instructedCurrency).map((amount) => ({
      ...p,
      rate: p.source === p.target ? decimal(1n) : p.rate,
      instructedCurrency,
      amount,
    }))
  })

const grossPricing = pricing.filter((p) => p.instructedCurrency === p.source)

const fitsMinorUnits = (d: Decimal, code: string) => significantScale(d) <= minorUnits(code)
const eq = (a: Decimal, b: Decimal) => compare(a, b) === 0

describe("net quotes", () => {
  it("give the recipient exactly the instructed amount, or charge exactly it plus the fee", () => {
    fc.assert(
      fc.property(pricing, (p) => {
        const result = priceQuote({
          amount: p.amount,
          instructedCurrency: p.instructedCurrency,
          sourceCurrency: p.source,
          targetCurrency: p.target,
          strategy: "net",
          rate: p.rate,
          fee: p.fee,
        })
        if (Either.isLeft(result)) {
          // only refused when conversion leaves nothing to pay
          expect(result.left.errors[0]?.message).toMatch(/too small/)
          return
        }
        const { sourceAmount, targetAmount, fee } = result.right
        expect(fitsMinorUnits(sourceAmount, p.source) && fitsMinorUnits(fee, p.source)).toBe(true)
        expect(fitsMinorUnits(targetAmount, p.target)).toBe(true)
        expect(compare(fee, decimal(0n))).toBeGreaterThanOrEqual(0)
        const principal = subtract(sourceAmount, fee)
        expect(eq(fee, computeFee(p.fee, principal, p.source))).toBe(true)
        if (p.instructedCurrency === p.target) expect(eq(targetAmount, p.amount)).toBe(true)
        if (p.instructedCurrency === p.source) {
          expect(eq(principal, p.amount)).toBe(true)
          expect(eq(targetAmount, roundHalfUp(multiply(p.amount, p.rate), minorUnits(p.target)))).toBe(true)
        }
        if (p.source === p.target) expect(eq(add(targetAmount, fee), sourceAmount)).toBe(true)
      }),
    )
  })

  it("never charge less for paying more", () => {
    fc.assert(
      fc.property(pricing, fc.bigInt({ min: 0n, max: 10n ** 6n }), (p, extra) => {
        const more = add(p.amount, decimal(extra, minorUnits(p.instructedCurrency)))
        const price = (amount: Decimal) =>
          priceQuote({
            amount,
            instructedCurrency: p.instructedCurrency,
            sourceCurrency: p.source,
            targetCurrency: p.target,
            strategy: "net",
            rate: p.rate,
            fee: p.fee,
          })
        const [a, b] = [price(p.amount), price(more)]
        if (Either.isRight(a) && Either.isRight(b)) {
          expect(compare(a.right.sourceAmount, b.right.sourceAmount)).toBeLessThanOrEqual(0)
          expect(compare(a.right.targetAmount, b.right.targetAmount)).toBeLessThanOrEqual(0)
        }
      }),
    )
  })
})

describe("gross quotes", () => {
  it("charge exactly the instructed amount and pay it less the fee, converted", () => {
    fc.assert(
      fc.property(grossPricing, (p) => {
        const result = priceQuote({
          amount: p.amount,
          instructedCurrency: p.source,
          sourceCurrency: p.source,
          targetCurrency: p.target,
          strategy: "gross",
          rate: p.rate,
          fee: p.fee,
        })
        const fee = computeFee(p.fee, p.amount, p.source)
        if (compare(fee, p.amount) >= 0) {
          expect(Either.isLeft(result) && result.left.errors).toEqual([
            { field: "instructed_amount", message: "Instructed amount must be greater than the fee" },
          ])
          return
        }
        if (Either.isLeft(result)) {
          expect(result.left.errors[0]?.message).toMatch(/too small/)
          return
        }
        expect(eq(result.right.sourceAmount, p.amount)).toBe(true)
        expect(eq(result.right.fee, fee)).toBe(true)
        const expectedTarget = roundHalfUp(multiply(subtract(p.amount, fee), p.rate), minorUnits(p.target))
        expect(eq(result.right.targetAmount, expectedTarget)).toBe(true)
        expect(compare(result.right.fee, result.right.sourceAmount)).toBe(-1)
      }),
    )
  })

  it("must be instructed in the source currency", () => {
    const result = priceQuote({
      amount: decimal(100n),
      instructedCurrency: "EUR",
      sourceCurrency: "USD",
      targetCurrency: "EUR",
      strategy: "gross",
      rate: decimal(92n, 2),
      fee: { fixed: {}, basisPoints: 0 },
    })
    expect(Either.isLeft(result) && result.left.errors).toEqual([
      { field: "fee_strategy", message: "Gross quotes must be instructed in the source currency" },
    ])
  })
})

describe("quote rules", () => {
  it("refuse an instructed currency that is neither side", () => {
    fc.assert(
      fc.property(fc.constantFrom("CHF", "SGD", "AUD"), fc.constantFrom("net", "gross" as const), (code, strategy) => {
        const result = priceQuote({
          amount: decimal(100n),
          instructedCurrency: code,
          sourceCurrency: "USD",
          targetCurrency: "EUR",
          strategy,
          rate: decimal(92n, 2),
          fee: { fixed: {}, basisPoints: 0 },
        })
        expect(Either.isLeft(result) && result.left.errors).toEqual([
          { field: "instructed_amount", message: "Currency must match the source or target profile" },
        ])
      }),
    )
  })

  it("take the margin off the mid rate, never adding to it", () => {
    fc.assert(
      fc.property(rate, fc.nat(1000), (mid, margin) => {
        const r = customerRate(mid, margin, false)
        expect(r.scale).toBe(rateScale)
        expect(compare(r, mid)).toBeLessThanOrEqual(0)
        expect(customerRate(mid, margin, true)).toEqual(decimal(1n))
      }),
    )
  })

  it("price the documented examples", () => {
    const usd = priceQuote({
      amount: decimal(10000n, 2),
      instructedCurrency: "USD",
      sourceCurrency: "USD",
      targetCurrency: "USD",
      strategy: "net",
      rate: decimal(1n),
      fee: { fixed: { USD: "0.25" }, basisPoints: 0 },
    })
    expect(Either.map(usd, (q) => [q.sourceAmount, q.targetAmount, q.fee].map((d) => formatDecimal(d, 2)))).toEqual(
      Either.right(["100.25", "100.00", "0.25"]),
    )
    const toEur = priceQuote({
      amount: decimal(1000n),
      instructedCurrency: "EUR",
      sourceCurrency: "USD",
      targetCurrency: "EUR",
      strategy: "net",
      rate: decimal(91695000n, 8),
      fee: { fixed: { USD: "25.00" }, basisPoints: 10 },
    })
    // 1000 / 0.91695 = 1090.572...; fee 25 + 0.1% of 1090.57 = 26.09
    expect(Either.map(toEur, (q) => [formatDecimal(q.sourceAmount, 2), formatDecimal(q.fee, 2)])).toEqual(
      Either.right(["1116.66", "26.09"]),
    )
  })
})

describe("parseInstructedAmount", () => {
  it("holds an amount to its currency's minor units, above zero, at most a billion", () => {
    const message = (amount: number, code: string) => {
      const result = parseInstructedAmount(amount, code)
      return Either.isLeft(result) ? result.left.errors[0]?.message : "ok"
    }
    expect(message(10.13, "USD")).toBe("ok")
    expect(message(10.131, "USD")).toBe("Amount has too many decimal places for USD")
    expect(message(10.5, "JPY")).toBe("Amount has too many decimal places for JPY")
    expect(message(1.001, "BHD")).toBe("ok")
    expect(message(0, "USD")).toBe("Instructed amount must be greater than zero")
    expect(message(-5, "USD")).toBe("Instructed amount must be greater than zero")
    expect(message(1_000_000_000, "USD")).toBe("ok")
    expect(message(1_000_000_000.01, "USD")).toBe("Instructed amount exceeds the maximum")
    fc.assert(
      fc.property(currency, fc.bigInt({ min: 1n, max: 10n ** 11n }), (code, units) => {
        const scale = minorUnits(code)
        const value = Number(formatDecimal(decimal(units, scale), scale))
        const expected = units <= 10n ** 9n * 10n ** BigInt(scale) ? "ok" : "Instructed amount exceeds the maximum"
        expect(message(value, code)).toBe(expected)
      }),
    )
  })
})
