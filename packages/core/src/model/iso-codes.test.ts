import { expect, it } from "vitest"
import { countryAlpha2Codes, isCountryAlpha2, isCurrencyCode, payableCurrencyCodes } from "./iso-codes.ts"

it("knows assigned country codes, upper case only", () => {
  for (const code of ["US", "GB", "DE", "MX", "JP", "SG"]) expect(isCountryAlpha2(code)).toBe(true)
  for (const code of ["us", "USA", "XX", "EU", "UK", "", "U"]) expect(isCountryAlpha2(code)).toBe(false)
})

it("knows currencies one pays with, upper case only", () => {
  for (const code of ["USD", "EUR", "JPY", "BHD", "MXN"]) expect(isCurrencyCode(code)).toBe(true)
  for (const code of ["usd", "XAU", "XXX", "XTS", "HRK", "US", "DOLLAR"]) expect(isCurrencyCode(code)).toBe(false)
})

it("lists exactly the codes it accepts, sorted, for the choices of a form", () => {
  const countries = countryAlpha2Codes()
  expect(countries.length).toBeGreaterThan(240)
  expect(countries).toEqual([...countries].sort())
  expect(countries.every(isCountryAlpha2)).toBe(true)
  expect(countries).toEqual(expect.arrayContaining(["US", "GB", "DE", "MX", "JP", "SG"]))
  const currencies = payableCurrencyCodes()
  expect(currencies).toEqual([...new Set(currencies)].sort())
  expect(currencies.every(isCurrencyCode)).toBe(true)
  expect(currencies).toEqual(expect.arrayContaining(["USD", "EUR", "JPY", "GBP", "MXN"]))
  expect(currencies).not.toContain("XAU")
})
