/**
 * Exact decimal numbers: `units / 10^scale` with a bigint `units`. The only arithmetic the engine
 * does on money; binary floating point never touches an amount.
 *
 * @example
 * const fee = roundHalfUp(multiply(parseDecimal("123.45")!, parseDecimal("0.0025")!), 2) // 0.31
 * formatDecimal(fee, 2) // "0.31"
 */
export interface Decimal {
  readonly units: bigint
  readonly scale: number
}

const pow10 = (n: number): bigint => 10n ** BigInt(n)
const abs = (n: bigint): bigint => (n < 0n ? -n : n)

/** A decimal from integer units and a scale: `decimal(1234n, 2)` is 12.34. */
export const decimal = (units: bigint, scale = 0): Decimal => ({ units, scale })

export const zero: Decimal = decimal(0n)

const decimalText = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/**
 * Parses "12.34", "-0.5", "1e-7" or "2.5E+3" exactly; undefined for anything else. Exponents
 * beyond ±400 are refused rather than expanded.
 */
export const parseDecimal = (text: string): Decimal | undefined => {
  const match = decimalText.exec(text)
  if (!match) return undefined
  const [, sign, whole = "", fraction = "", exponentText] = match
  const exponent = exponentText === undefined ? 0 : Number(exponentText)
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) return undefined
  const digits = BigInt(whole + fraction) * (sign ? -1n : 1n)
  const scale = fraction.length - exponent
  return scale >= 0 ? decimal(digits, scale) : decimal(digits * pow10(-scale), 0)
}

/**
 * The decimal a JSON number was written as: JavaScript prints a number with the fewest digits
 * that read back to it, which is what a client typed for any amount of up to 15 digits.
 */
export const fromJsonNumber = (value: number): Decimal | undefined =>
  Number.isFinite(value) ? parseDecimal(String(value)) : undefined

/** The same value with `scale` decimals; `scale` must not be below the current one. */
const widen = (d: Decimal, scale: number): Decimal =>
  scale === d.scale ? d : decimal(d.units * pow10(scale - d.scale), scale)

const aligned = (a: Decimal, b: Decimal): [bigint, bigint, number] => {
  const scale = Math.max(a.scale, b.scale)
  return [widen(a, scale).units, widen(b, scale).units, scale]
}

export const add = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, scale] = aligned(a, b)
  return decimal(x + y, scale)
}

export const subtract = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, scale] = aligned(a, b)
  return decimal(x - y, scale)
}

export const multiply = (a: Decimal, b: Decimal): Decimal => decimal(a.units * b.units, a.scale + b.scale)

export const compare = (a: Decimal, b: Decimal): -1 | 0 | 1 => {
  const [x, y] = aligned(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

export const isPositive = (d: Decimal): boolean => d.units > 0n

/** `numerator / denominator` rounded half away from zero. */
const divideUnits = (numerator: bigint, denominator: bigint): bigint => {
  const quotient = abs(numerator) / abs(denominator)
  const remainder = abs(numerator) % abs(denominator)
  const rounded = 2n * remainder >= abs(denominator) ? quotient + 1n : quotient
  return numerator < 0n !== denominator < 0n ? -rounded : rounded
}

/** Rounds half up (away from zero) to `scale` decimals, once; exact when already that short. */
export const roundHalfUp = (d: Decimal, scale: number): Decimal =>
  d.scale <= scale ? widen(d, scale) : decimal(divideUnits(d.units, pow10(d.scale - scale)), scale)

/** `a / b` rounded half up to `scale` decimals. Throws on division by zero. */
export const divide = (a: Decimal, b: Decimal, scale: number): Decimal => {
  if (b.units === 0n) throw new RangeError("Division by zero")
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale); scaled by 10^scale.
  const numerator = a.units * pow10(scale + b.scale)
  const denominator = b.units * pow10(a.scale)
  return decimal(divideUnits(numerator, denominator), scale)
}

/** Decimals the value really needs: 12.340 needs 2. */
export const significantScale = (d: Decimal): number => {
  let { units, scale } = d
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n
    scale -= 1
  }
  return scale
}

/** Text with exactly `scale` decimals ("12.30"), rounding half up if the value is longer. */
export const formatDecimal = (d: Decimal, scale: number): string => {
  const { units } = roundHalfUp(d, scale)
  const digits = abs(units)
    .toString()
    .padStart(scale + 1, "0")
  const sign = units < 0n ? "-" : ""
  return scale === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`
}
