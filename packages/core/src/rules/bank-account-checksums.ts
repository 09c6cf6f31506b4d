/**
 * Check-digit rules of bank account identifiers: IBAN (ISO 13616, mod 97), US ABA routing
 * numbers and Mexican CLABEs (weights 3, 7, 1). Pure functions on strings, no dependencies.
 */

/**
 * IBAN lengths by country (SWIFT's ISO 13616 registry): every SEPA country, the United Kingdom,
 * and the other countries that use IBANs for domestic payments.
 */
export const ibanLengths: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
}

/** The weighted digit sum (weights 3, 7, 1 repeating) modulo 10, of ABA routing numbers and CLABEs. */
const weighted371 = (digits: string): number => {
  const weights = [3, 7, 1] as const
  let sum = 0
  for (let i = 0; i < digits.length; i++) sum += ((digits.charCodeAt(i) - 48) * weights[i % 3]!) % 10
  return sum % 10
}

/**
 * An IBAN (ISO 13616): a registered country code, the length registered for it, letters and
 * digits only, and the ISO 7064 mod-97 check equal to 1 (computed digit by digit in small
 * integers, exactly). Spaces are ignored and letters may be lower case, as people write IBANs.
 *
 * @example
 * isValidIban("GB82 WEST 1234 5698 7654 32") // true
 * isValidIban("GB82WEST12345698765433") // false: the check fails
 */
export const isValidIban = (value: string): boolean => {
  const iban = value.replace(/\s/g, "").toUpperCase()
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) return false
  if (ibanLengths[iban.slice(0, 2)] !== iban.length) return false
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let rest = 0
  for (const character of rearranged) {
    const code = character.charCodeAt(0)
    // a letter stands for two digits (A = 10 ... Z = 35), a digit for itself
    rest = code >= 65 ? (rest * 100 + (code - 55)) % 97 : (rest * 10 + (code - 48)) % 97
  }
  return rest === 1
}

/**
 * A US ABA routing number: nine digits whose weighted sum (weights 3, 7, 1 repeating) is a
 * multiple of 10. Catches every single wrong digit.
 *
 * @example
 * isValidAbaRoutingNumber("021000021") // true
 * isValidAbaRoutingNumber("021000022") // false
 */
export const isValidAbaRoutingNumber = (value: string): boolean => /^[0-9]{9}$/.test(value) && weighted371(value) === 0

/**
 * The control digit of the first 17 digits of a CLABE: each digit times its weight (3, 7, 1
 * repeating) modulo 10, summed; the control digit is (10 - sum mod 10) mod 10.
 *
 * @example
 * clabeControlDigit("00201007777777777") // 1
 */
export const clabeControlDigit = (first17: string): number => (10 - weighted371(first17)) % 10

/**
 * A Mexican CLABE (Clave Bancaria Estandarizada): 18 digits (bank 3, branch 3, account 11,
 * control 1) whose last digit is the {@link clabeControlDigit} of the first 17.
 *
 * @example
 * isValidClabe("002010077777777771") // true
 */
export const isValidClabe = (value: string): boolean =>
  /^[0-9]{18}$/.test(value) && clabeControlDigit(value.slice(0, 17)) === value.charCodeAt(17) - 48
