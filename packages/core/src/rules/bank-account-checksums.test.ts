import fc from "fast-check"
import { isValidIBAN } from "ibantools"
import { describe, expect, it } from "vitest"
import {
  clabeControlDigit,
  ibanLengths,
  isValidAbaRoutingNumber,
  isValidBic,
  isValidClabe,
  isValidIban,
} from "./bank-account-checksums.ts"

// Generators compute the check digits their own, textbook way (bigint, plain sums), never with
// the code under test. ibantools is the reference the IBAN check must agree with.

const digits = (length: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((d) => d.join(""))

const alphanumerics = (length: number) =>
  fc
    .array(fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"), { minLength: length, maxLength: length })
    .map((c) => c.join(""))

/** ISO 13616 check digits: 98 - (BBAN + country + "00" as a number) mod 97. */
const ibanWithCheck = (country: string, bban: string) => {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (l) => String(l.charCodeAt(0) - 55))
  const check = 98n - (BigInt(numeric) % 97n)
  return `${country}${check.toString().padStart(2, "0")}${bban}`
}

/** 3-7-1 weights over the first digits; the last digit makes the sum a multiple of 10. */
const withWeighted371Check = (first: string) => {
  const sum = [...first].reduce((t, d, i) => t + Number(d) * [3, 7, 1][i % 3]!, 0)
  return `${first}${(10 - (sum % 10)) % 10}`
}

/** Positions (from `from`) holding a digit. */
const digitPositions = (value: string, from = 0) =>
  [...value].flatMap((c, i) => (i >= from && c >= "0" && c <= "9" ? [i] : []))

const changeDigit = (value: string, i: number, by: number) =>
  value.slice(0, i) + String((Number(value[i]) + by) % 10) + value.slice(i + 1)

const swapAt = (value: string, i: number) => value.slice(0, i) + value[i + 1] + value[i] + value.slice(i + 2)

/** Positions i where value[i] and value[i + 1] are both digits and differ by other than 0 or 5. */
const swapsDetectedByWeights371 = (value: string) =>
  digitPositions(value)
    .filter((i) => i + 1 < value.length)
    .filter((i) => ![0, 5].includes(Math.abs(Number(value[i]) - Number(value[i + 1]))))

/** Adjacent positions (from 2, past the country code) holding two different digits. */
const swappableDigits = (value: string) =>
  digitPositions(value, 2).filter((i) => /[0-9]/.test(value[i + 1] ?? "") && value[i] !== value[i + 1])

/** The IBANs of the README's table of sandbox test values. */
const readmeIbans = [
  "GB29NWBK60161331926819",
  "AT611904300234573201",
  "BE68539007547034",
  "DE89370400440532013000",
  "ES9121000418450200051332",
  "FI2112345600000785",
  "FR1420041010050500013M02606",
  "IE29AIBK93115212345678",
  "IT60X0542811101000000123456",
  "NL91ABNA0417164300",
  "PT50000201231234567890154",
]

const letters = (length: number) =>
  fc
    .array(fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"), { minLength: length, maxLength: length })
    .map((c) => c.join(""))

/** National formats without national check digits, so any bank and account number of the format is valid. */
const bbans: ReadonlyArray<readonly [string, fc.Arbitrary<string>]> = [
  ["DE", digits(18)],
  ["AT", digits(16)],
  ["GB", fc.tuple(letters(4), digits(14)).map(([bank, rest]) => bank + rest)],
  ["NL", fc.tuple(letters(4), digits(10)).map(([bank, rest]) => bank + rest)],
  ["CH", fc.tuple(digits(5), alphanumerics(12)).map(([bank, rest]) => bank + rest)],
]

/** Every IBAN with one character replaced by another letter or digit. */
const oneCharacterChanges = (iban: string) =>
  [...iban].flatMap((original, i) =>
    [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"]
      .filter((c) => c !== original)
      .map((c) => iban.slice(0, i) + c + iban.slice(i + 1)),
  )

describe("isValidIban", () => {
  const iban = fc.constantFrom(...bbans).chain(([country, bban]) => bban.map((value) => ibanWithCheck(country, value)))

  it("accepts an IBAN with correct check digits, in any case and grouped in fours", () => {
    fc.assert(
      fc.property(iban, (value) => {
        expect(isValidIban(value)).toBe(true)
        expect(
          isValidIban(
            value
              .replace(/(.{4})/g, "$1 ")
              .trim()
              .toLowerCase(),
          ),
        ).toBe(true)
      }),
    )
  })

  it("accepts real IBANs of the SEPA countries and the UK", () => {
    for (const real of [
      ...readmeIbans,
      "GB82WEST12345698765432",
      "CH9300762011623852957",
      "NO9386011117947",
      "MT84MALT011000012345MTLCAST001S",
    ]) {
      expect({ real, valid: isValidIban(real) }).toEqual({ real, valid: true })
    }
  })

  it("refuses a national part of the wrong format though its mod-97 check passes", () => {
    // a German account number is 18 digits; this one passes mod 97 with a letter in it
    for (const wrong of ["DE893S0400440532013000", "de89 3s04 0044 0532 0130 00"]) {
      expect({ wrong, valid: isValidIban(wrong) }).toEqual({ wrong, valid: false })
    }
  })

  it("agrees with ibantools on one-character changes of the README's IBANs", () => {
    const changes = readmeIbans.flatMap(oneCharacterChanges)
    fc.assert(
      fc.property(fc.constantFrom(...changes), (changed) => {
        expect({ changed, valid: isValidIban(changed) }).toEqual({ changed, valid: isValidIBAN(changed) })
      }),
      { numRuns: 10_000 },
    )
  })

  it("refuses an IBAN with any one digit changed (mod 97 catches every single substitution)", () => {
    fc.assert(
      fc.property(iban, fc.nat(), fc.integer({ min: 1, max: 9 }), (value, at, by) => {
        const positions = digitPositions(value, 2)
        expect(isValidIban(changeDigit(value, positions[at % positions.length]!, by))).toBe(false)
      }),
    )
  })

  it("refuses an IBAN with two different adjacent digits swapped", () => {
    const withSwap = iban.filter((value) => swappableDigits(value).length > 0)
    fc.assert(
      fc.property(withSwap, fc.nat(), (value, at) => {
        const positions = swappableDigits(value)
        expect(isValidIban(swapAt(value, positions[at % positions.length]!))).toBe(false)
      }),
    )
  })

  it("refuses wrong lengths, unknown countries and foreign characters", () => {
    fc.assert(
      fc.property(iban, fc.constantFrom("0", "A"), (value, extra) => {
        expect(isValidIban(`${value}${extra}`)).toBe(false)
        expect(isValidIban(value.slice(0, -1))).toBe(false)
      }),
    )
    for (const wrong of [
      "",
      "GB",
      "GB82",
      "XX82WEST12345698765432",
      "GB82-WEST-1234-5698-7654-32",
      "GB82WEST1234569876543É",
    ]) {
      expect({ wrong, valid: isValidIban(wrong) }).toEqual({ wrong, valid: false })
    }
  })

  it("knows the length of every country of ibantools, the registry's included", () => {
    expect(Object.keys(ibanLengths)).toHaveLength(124)
    expect(ibanLengths).toMatchObject({ DE: 22, GB: 22, NO: 15, MT: 31, FR: 27, RU: 33, LC: 32 })
  })
})

describe("isValidBic", () => {
  it("accepts the README's BICs, with and without a branch", () => {
    for (const bic of [
      "CHASUS33",
      "ROYCCAT2",
      "BNMXMXMM",
      "NWBKGB2L",
      "BKAUATWW",
      "GEBABEBB",
      "COBADEFFXXX",
      "CAIXESBB",
      "NDEAFIHH",
      "BNPAFRPP",
      "AIBKIE2D",
      "UNCRITMM",
      "ABNANL2A",
      "CGDIPTPL",
      "CTBAAU2S",
      "HDFCINBB",
      "DBSSSGSG",
      "MHCBJPJT",
    ]) {
      expect({ bic, valid: isValidBic(bic) }).toEqual({ bic, valid: true })
    }
  })

  it("refuses an unknown country, a digit in the bank code, and a wrong length", () => {
    for (const bic of [
      "",
      "COBAZZFF",
      "C0BADEFF",
      "COBADEF",
      "COBADEFFX",
      "COBADEFFXXXX",
      "COBA DEFF",
      "COBADEFF-XX",
    ]) {
      expect({ bic, valid: isValidBic(bic) }).toEqual({ bic, valid: false })
    }
  })
})

describe("isValidAbaRoutingNumber", () => {
  const routingNumber = digits(8).map(withWeighted371Check)

  it("accepts nine digits with a correct check digit, and real routing numbers", () => {
    fc.assert(
      fc.property(routingNumber, (value) => {
        expect(isValidAbaRoutingNumber(value)).toBe(true)
      }),
    )
    for (const real of ["021000021", "011000015", "026009593", "121000358", "111000025"]) {
      expect({ real, valid: isValidAbaRoutingNumber(real) }).toEqual({ real, valid: true })
    }
  })

  it("refuses any one digit changed (3, 7 and 1 are prime to 10)", () => {
    fc.assert(
      fc.property(routingNumber, fc.nat(8), fc.integer({ min: 1, max: 9 }), (value, at, by) => {
        expect(isValidAbaRoutingNumber(changeDigit(value, at, by))).toBe(false)
      }),
    )
  })

  it("refuses adjacent digits swapped unless they differ by 5, the one swap 3-7-1 weights cannot see", () => {
    const withSwap = routingNumber.filter((value) => swapsDetectedByWeights371(value).length > 0)
    fc.assert(
      fc.property(withSwap, fc.nat(), (value, at) => {
        const positions = swapsDetectedByWeights371(value)
        expect(isValidAbaRoutingNumber(swapAt(value, positions[at % positions.length]!))).toBe(false)
      }),
    )
    // 0 and 5 swapped under weights 3 and 7: (3 - 7) * (0 - 5) = 20, a multiple of 10
    expect(isValidAbaRoutingNumber("500000005")).toBe(true)
    expect(isValidAbaRoutingNumber("050000005")).toBe(true)
  })

  it("refuses anything but nine digits", () => {
    for (const wrong of ["", "02100002", "0210000210", "02100002a", " 021000021", "021 000 021", "０21000021"]) {
      expect({ wrong, valid: isValidAbaRoutingNumber(wrong) }).toEqual({ wrong, valid: false })
    }
  })
})

describe("isValidClabe", () => {
  const clabe = digits(17).map(withWeighted371Check)

  it("accepts 18 digits with the right control digit, and real CLABEs", () => {
    fc.assert(
      fc.property(clabe, (value) => {
        expect(isValidClabe(value)).toBe(true)
        expect(clabeControlDigit(value.slice(0, 17))).toBe(Number(value[17]))
      }),
    )
    for (const real of ["002010077777777771", "032180000118359719", "014027000005555558"]) {
      expect({ real, valid: isValidClabe(real) }).toEqual({ real, valid: true })
    }
  })

  it("refuses any one digit changed, the control digit included", () => {
    fc.assert(
      fc.property(clabe, fc.nat(17), fc.integer({ min: 1, max: 9 }), (value, at, by) => {
        expect(isValidClabe(changeDigit(value, at, by))).toBe(false)
      }),
    )
  })

  it("refuses adjacent digits swapped unless they differ by 5", () => {
    const withSwap = clabe.filter((value) => swapsDetectedByWeights371(value).length > 0)
    fc.assert(
      fc.property(withSwap, fc.nat(), (value, at) => {
        const positions = swapsDetectedByWeights371(value)
        expect(isValidClabe(swapAt(value, positions[at % positions.length]!))).toBe(false)
      }),
    )
  })

  it("refuses anything but 18 digits", () => {
    for (const wrong of ["", "00201007777777777", "0020100777777777710", "00201007777777777a"]) {
      expect({ wrong, valid: isValidClabe(wrong) }).toEqual({ wrong, valid: false })
    }
  })
})
