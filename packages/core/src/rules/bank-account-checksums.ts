/** IBAN lengths by country (ISO 13616 registry), for the countries the sandbox serves and their neighbours. */
export const ibanLengths: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
}

/** `digits` (a string of decimal digits) modulo `m`, without big integers or floating point. */
const mod = (digits: string, m: number): number => {
  let rest = 0
  for (const digit of digits) rest = (rest * 10 + (digit.charCodeAt(0) - 48)) % m
  return rest
}

/**
 * An IBAN (ISO 13616): known country length, upper-case letters and digits, and the mod-97
 * check equal to 1. Spaces are ignored and letters may be lower case.
 *
 * @example
 * isValidIban("GB82 WEST 1234 5698 7654 32") // true
 */
export const isValidIban = (value: string): boolean => {
  const iban = value.replace(/\s+/g, "").toUpperCase()
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(iban)) return false
  if (ibanLengths[iban.slice(0, 2)] !== iban.length) return false
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  const digits = rearranged.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))
  return mod(digits, 97) === 1
}

/**
 * A US ABA routing number: nine digits whose weighted sum (3, 7, 1 repeating) is a multiple of 10.
 *
 * @example
 * isValidAbaRoutingNumber("021000021") // true
 */
export const isValidAbaRoutingNumber = (value: string): boolean => {
  if (!/^\d{9}$/.test(value)) return false
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1]
  const sum = weights.reduce((total, weight, i) => total + weight * (value.charCodeAt(i) - 48), 0)
  return sum % 10 === 0
}

/**
 * A Mexican CLABE: 18 digits whose last is the control digit of the first 17 (weights 3, 7, 1
 * repeating, each product taken modulo 10).
 *
 * @example
 * isValidClabe("002010077777777771") // true
 */
export const isValidClabe = (value: string): boolean => {
  if (!/^\d{18}$/.test(value)) return false
  return clabeControlDigit(value.slice(0, 17)) === value.charCodeAt(17) - 48
}

/** The control digit of the first 17 digits of a CLABE. */
export const clabeControlDigit = (first17: string): number => {
  const weights = [3, 7, 1]
  const sum = [...first17].reduce((total, digit, i) => total + (((digit.charCodeAt(0) - 48) * weights[i % 3]!) % 10), 0)
  return (10 - (sum % 10)) % 10
}
