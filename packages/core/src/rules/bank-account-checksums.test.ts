import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  clabeControlDigit,
  ibanLengths,
  isValidAbaRoutingNumber,
  isValidClabe,
  isValidIban,
} from "./bank-account-checksums.ts"

const digits = (length: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((d) => d.join(""))

/** Check digits computed the textbook way, with bigint, independently of the code under test. */
const ibanWithCheck = (country: string, bban: string) => {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (l) => String(l.charCodeAt(0) - 55))
  const check = 98n - (BigInt(numeric) % 97n)
  return `${country}${check.toString().padStart(2, "0")}${bban}`
}

const abaWithCheck = (first8: string) => {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7]
  const sum = weights.reduce((t, w, i) => t + w * Number(first8[i]), 0)
  return `${first8}${(10 - (sum % 10)) % 10}`
}

const changeOneDigit = (value: string, at: number, by: number) => {
  const positions = [...value].flatMap((c, i) => (/\d/.test(c) ? [i] : []))
  const i = positions[at % positions.length]!
  return value.slice(0, i) + String((Number(value[i]) + by) % 10) + value.slice(i + 1)
}

describe("IBAN", () => {
  const iban = fc
    .constantFrom(...Object.keys(ibanLengths))
    .chain((country) => digits(ibanLengths[country]! - 4).map((bban) => ibanWithCheck(country, bban)))

  it("accepts IBANs with correct check digits, in any case and grouping", () => {
    fc.assert(
      fc.property(iban, (value) => {
        expect(isValidIban(value)).toBe(true)
        expect(isValidIban(value.replace(/(.{4})/g, "$1 ").toLowerCase())).toBe(true)
      }),
    )
    for (const real of [
      "GB82WEST12345698765432",
      "DE89370400440532013000",
      "FR1420041010050500013M02606",
      "NL91ABNA0417164300",
    ]) {
      expect(isValidIban(real)).toBe(true)
    }
  })

  it("refuses any single changed digit, and wrong lengths", () => {
    fc.assert(
      fc.property(iban, fc.nat(), fc.integer({ min: 1, max: 9 }), (value, at, by) => {
        expect(isValidIban(changeOneDigit(value, at, by))).toBe(false)
        expect(isValidIban(`${value}0`)).toBe(false)
      }),
    )
    expect(isValidIban("XX82WEST12345698765432")).toBe(false)
    expect(isValidIban("")).toBe(false)
  })
})

describe("ABA routing number", () => {
  it("accepts numbers with a correct check digit and refuses any single changed digit", () => {
    fc.assert(
      fc.property(digits(8), fc.nat(8), fc.integer({ min: 1, max: 9 }), (first8, at, by) => {
        const valid = abaWithCheck(first8)
        expect(isValidAbaRoutingNumber(valid)).toBe(true)
        // weights 3, 7, 1 are prime to 10, so every single-digit change moves the sum off a multiple of 10
        expect(isValidAbaRoutingNumber(changeOneDigit(valid, at, by))).toBe(false)
      }),
    )
    for (const real of ["021000021", "011000015", "026009593"]) expect(isValidAbaRoutingNumber(real)).toBe(true)
    for (const wrong of ["021000022", "02100002", "02100002a"]) expect(isValidAbaRoutingNumber(wrong)).toBe(false)
  })
})

describe("CLABE", () => {
  it("accepts numbers with the right control digit and refuses a changed one", () => {
    fc.assert(
      fc.property(digits(17), fc.integer({ min: 1, max: 9 }), (first17, by) => {
        const control = clabeControlDigit(first17)
        expect(isValidClabe(`${first17}${control}`)).toBe(true)
        expect(isValidClabe(`${first17}${(control + by) % 10}`)).toBe(false)
      }),
    )
    expect(isValidClabe("002010077777777771")).toBe(true)
    expect(isValidClabe("002010077777777772")).toBe(false)
    expect(isValidClabe("00201007777777777")).toBe(false)
  })
})
