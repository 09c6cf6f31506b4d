import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  add,
  compare,
  type Decimal,
  decimal,
  divide,
  formatDecimal,
  fromJsonNumber,
  multiply,
  parseDecimal,
  roundHalfUp,
  significantScale,
  subtract,
} from "./decimal.ts"

const anyDecimal = fc.record({ units: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), scale: fc.nat(12) })
const nonZero = anyDecimal.filter((d) => d.units !== 0n)
const scaled = (d: Decimal, scale: number) => d.units * 10n ** BigInt(scale - d.scale)

describe("decimal arithmetic", () => {
  it("adds and subtracts exactly", () => {
    fc.assert(
      fc.property(anyDecimal, anyDecimal, (a, b) => {
        expect(compare(subtract(add(a, b), b), a)).toBe(0)
        expect(compare(add(a, b), add(b, a))).toBe(0)
      }),
    )
  })

  it("rounds half away from zero to within half a unit of the last place", () => {
    fc.assert(
      fc.property(anyDecimal, fc.nat(12), (d, scale) => {
        const rounded = roundHalfUp(d, scale)
        expect(rounded.scale).toBe(scale)
        const wide = Math.max(d.scale, scale)
        const error = scaled(rounded, wide) - scaled(d, wide)
        const half = 10n ** BigInt(wide - scale)
        expect(2n * (error < 0n ? -error : error) <= half).toBe(true)
        if (2n * (error < 0n ? -error : error) === half) {
          // a tie goes away from zero
          expect(d.units > 0n ? error > 0n : error < 0n).toBe(true)
        }
      }),
    )
  })

  it("rounds the textbook cases", () => {
    const r = (text: string, scale: number) => formatDecimal(roundHalfUp(parseDecimal(text)!, scale), scale)
    expect(r("2.345", 2)).toBe("2.35")
    expect(r("-2.345", 2)).toBe("-2.35")
    expect(r("2.344999", 2)).toBe("2.34")
    expect(r("0.5", 0)).toBe("1")
    expect(r("1.005", 2)).toBe("1.01")
  })

  it("divides to within half a unit of the last place", () => {
    fc.assert(
      fc.property(anyDecimal, nonZero, fc.nat(10), (a, b, scale) => {
        const q = divide(a, b, scale)
        // |q*b - a| <= |b| / 2 * 10^-scale, compared exactly at a common scale
        const product = multiply(q, b)
        const wide = Math.max(product.scale, a.scale) + 1
        const diff = scaled(product, wide) - scaled(a, wide)
        const bound = (b.units < 0n ? -b.units : b.units) * 10n ** BigInt(wide - scale - b.scale)
        expect(2n * (diff < 0n ? -diff : diff) <= bound).toBe(true)
      }),
    )
  })

  it("refuses division by zero", () => {
    expect(() => divide(decimal(1n), decimal(0n, 3), 2)).toThrow(RangeError)
  })
})

describe("parsing and formatting", () => {
  it("formats and parses back to the same value", () => {
    fc.assert(
      fc.property(anyDecimal, (d) => {
        expect(compare(parseDecimal(formatDecimal(d, d.scale))!, d)).toBe(0)
      }),
    )
  })

  it("reads JSON numbers as the decimals a client wrote", () => {
    expect(fromJsonNumber(10.13)).toEqual(decimal(1013n, 2))
    expect(fromJsonNumber(0.1 + 0.2)).toEqual(decimal(30000000000000004n, 17))
    expect(fromJsonNumber(1e21)).toEqual(decimal(10n ** 21n, 0))
    expect(fromJsonNumber(1e-7)).toEqual(decimal(1n, 7))
    expect(fromJsonNumber(Number.NaN)).toBeUndefined()
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.nat(3), (units, scale) => {
        const text = formatDecimal(decimal(units, scale), scale)
        expect(compare(fromJsonNumber(Number(text))!, decimal(units, scale))).toBe(0)
      }),
    )
  })

  it("refuses what is not a decimal", () => {
    for (const text of ["", "1.", ".5", "1,5", "abc", "1e", "0x10", "1e999", " 1"])
      expect(parseDecimal(text)).toBeUndefined()
  })

  it("knows how many decimals a value needs", () => {
    expect(significantScale(decimal(12340n, 3))).toBe(2)
    expect(significantScale(decimal(100n, 2))).toBe(0)
    expect(significantScale(decimal(0n, 5))).toBe(0)
  })
})
