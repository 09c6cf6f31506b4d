import currencyCodes from "currency-codes"
import countries from "i18n-iso-countries"

/** True for an assigned ISO 3166-1 alpha-2 code, upper case only ("US", not "us" or "USA"). */
export const isCountryAlpha2 = (code: string): boolean => /^[A-Z]{2}$/.test(code) && countries.isValid(code)

/** True for an active ISO 4217 alphabetic code, upper case only ("USD"). */
export const isCurrencyCode = (code: string): boolean =>
  /^[A-Z]{3}$/.test(code) && currencyCodes.code(code) !== undefined
