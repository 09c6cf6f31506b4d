import { expect, it } from "vitest"
import { isCountryAlpha2, isCurrencyCode } from "./iso-codes.ts"

it("knows assigned country codes, upper case only", () => {
  for (const code of ["US", "GB", "DE", "MX", "JP", "SG"]) expect(isCountryAlpha2(code)).toBe(true)
  for (const code of ["us", "USA", "XX", "EU", "UK", "", "U"]) expect(isCountryAlpha2(code)).toBe(false)
})

it("knows currencies one pays with, upper case only", () => {
  for (const code of ["USD", "EUR", "JPY", "BHD", "MXN"]) expect(isCurrencyCode(code)).toBe(true)
  for (const code of ["usd", "XAU", "XXX", "XTS", "HRK", "US", "DOLLAR"]) expect(isCurrencyCode(code)).toBe(false)
})
