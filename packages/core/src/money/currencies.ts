import currencyCodes from "currency-codes"

/**
 * Decimals of the currency's minor unit per ISO 4217: 2 for USD, 0 for JPY, 3 for BHD.
 * Throws for a code that is not ISO 4217; validate codes before pricing.
 */
export const minorUnits = (currency: string): number => {
  const entry = currencyCodes.code(currency)
  if (entry === undefined) throw new RangeError(`Unknown currency ${currency}`)
  return entry.digits
}
