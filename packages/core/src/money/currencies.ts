import currencyCodes from "currency-codes"

/** ISO 4217 minor units by code, read once: `currencyCodes.code` searches its whole list per call. */
const digitsByCode: ReadonlyMap<string, number> = new Map(
  currencyCodes.data.map((entry) => [entry.code, entry.digits] as const),
)

/** True for a code ISO 4217 lists (upper case). */
export const isIsoCurrency = (currency: string): boolean => digitsByCode.has(currency)

/**
 * Decimals of the currency's minor unit per ISO 4217: 2 for USD, 0 for JPY, 3 for BHD (any case).
 * Throws for a code that is not ISO 4217; validate codes before pricing.
 */
export const minorUnits = (currency: string): number => {
  const digits = digitsByCode.get(currency.toUpperCase())
  if (digits === undefined) throw new RangeError(`Unknown currency ${currency}`)
  return digits
}
