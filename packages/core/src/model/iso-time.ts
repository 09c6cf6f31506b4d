/*
 * Dates as the text `toISOString` writes, made from the UTC fields: V8's builtin took 1 to 3 µs a
 * call in a quote + payment pair, which writes four times and a day (docs/decisions.md, "Times
 * written by hand on the hot path"). Years outside 1000 to 9999, which `toISOString` writes with a
 * sign and six digits, are left to it.
 */

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`)
const threeDigits = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`)

const fourDigitYear = (year: number) => year >= 1000 && year <= 9999

/** `YYYY-MM-DD` of `date`, whose UTC year of four digits is `year`. */
const dayOf = (date: Date, year: number) =>
  `${year}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}`

/**
 * `date.toISOString()`, the same text: `2026-12-02T09:30:00.000Z`. Throws as it does for an invalid date.
 *
 * @example
 * isoTime(new Date(Date.UTC(2026, 11, 2, 9, 30))) // "2026-12-02T09:30:00.000Z"
 */
export const isoTime = (date: Date): string => {
  const year = date.getUTCFullYear()
  if (!fourDigitYear(year)) return date.toISOString()
  return `${dayOf(date, year)}T${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}.${threeDigits(date.getUTCMilliseconds())}Z`
}

/**
 * The date part of {@link isoTime}: `2026-12-02`, or `+010000-01-01` past year 9999.
 *
 * @example
 * isoDay(new Date(Date.UTC(2026, 11, 2, 9, 30))) // "2026-12-02"
 */
export const isoDay = (date: Date): string => {
  const year = date.getUTCFullYear()
  if (!fourDigitYear(year)) {
    const text = date.toISOString()
    return text.slice(0, text.indexOf("T"))
  }
  return dayOf(date, year)
}
