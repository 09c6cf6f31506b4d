import { getCountrySpecifications, isValidBIC, isValidIBAN } from "ibantools"

/**
 * Check rules of bank account identifiers: IBANs and BICs through ibantools (a maintained
 * library that knows each country's national format, which a mod-97 check and a length table
 * cannot see), US ABA routing numbers and Mexican CLABEs (weights 3, 7, 1). Pure functions on strings.
 */

/**
 * IBAN lengths by country: every country ibantools knows an IBAN format of (SWIFT's ISO 13616
 * registry and the countries that use IBANs outside it).
 */
export const ibanLengths: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(getCountrySpecifications()).flatMap(([country, spec]) =>
    spec.chars !== undefined && spec.chars !== null && spec.bban_regexp ? [[country, spec.chars]] : [],
  ),
)

/** The weighted digit sum (weights 3, 7, 1 repeating) modulo 10, of ABA routing numbers and CLABEs. */
const weighted371 = (digits: string): number => {
  const weights = [3, 7, 1] as const
  let sum = 0
  for (let i = 0; i < digits.length; i++) sum += ((digits.charCodeAt(i) - 48) * weights[i % 3]!) % 10
  return sum % 10
}

/**
 * An IBAN (ISO 13616): a known country, its length and national format (bank and branch codes,
 * national check digits where the country has them), and the mod-97 check digits, as ibantools
 * checks them. Spaces are ignored and letters may be lower case, as people write IBANs.
 *
 * @example
 * isValidIban("GB82 WEST 1234 5698 7654 32") // true
 * isValidIban("GB82WEST12345698765433") // false: the check fails
 * isValidIban("DE893S0400440532013000") // false: a German account is digits only, though mod 97 passes
 */
export const isValidIban = (value: string): boolean => isValidIBAN(value.replace(/\s/g, "").toUpperCase())

/**
 * A BIC (ISO 9362, SWIFT code) as ibantools checks it: four letters of bank, a known country,
 * two letters or digits of location, and optionally three of branch.
 *
 * @example
 * isValidBic("COBADEFFXXX") // true
 * isValidBic("COBAZZFF") // false: no country ZZ
 */
export const isValidBic = (value: string): boolean => isValidBIC(value)

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
