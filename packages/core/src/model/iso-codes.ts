import currencyCodes from "currency-codes"
import countries from "i18n-iso-countries"
import { isIsoCurrency } from "../money/currencies.ts"

/** True for an assigned ISO 3166-1 alpha-2 code, upper case only ("US", not "us" or "USA"). */
export const isCountryAlpha2 = (code: string): boolean => /^[A-Z]{2}$/.test(code) && countries.isValid(code)

/** ISO 4217 codes that are not money one pays with: precious metals, fund units, test codes. */
const notPayable = new Set([
  "XAU",
  "XAG",
  "XPD",
  "XPT",
  "XDR",
  "XSU",
  "XUA",
  "XBA",
  "XBB",
  "XBC",
  "XBD",
  "XTS",
  "XXX",
  "BOV",
  "CHE",
  "CHW",
  "CLF",
  "COU",
  "MXV",
  "USN",
  "UYI",
  "UYW",
])

/** True for an active ISO 4217 code of a currency one pays with, upper case only ("USD"). */
export const isCurrencyCode = (code: string): boolean =>
  /^[A-Z]{3}$/.test(code) && !notPayable.has(code) && isIsoCurrency(code)

/**
 * Every code {@link isCountryAlpha2} accepts, in alphabetical order: the choices of a form asking
 * for a country (a hosted page labels them in the person's language).
 *
 * @example
 * countryAlpha2Codes().includes("US") // true
 */
export const countryAlpha2Codes = (): ReadonlyArray<string> => Object.keys(countries.getAlpha2Codes()).sort()

/**
 * Every code {@link isCurrencyCode} accepts, in alphabetical order: the choices of a form asking
 * for a currency.
 *
 * @example
 * payableCurrencyCodes().includes("USD") // true; "XAU" is not there
 */
export const payableCurrencyCodes = (): ReadonlyArray<string> =>
  [...new Set(currencyCodes.codes())].filter(isCurrencyCode).sort()
