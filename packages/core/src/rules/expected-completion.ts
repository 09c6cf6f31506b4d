import { isoDay } from "../model/iso-time.ts"

/**
 * Business days a payment method takes in the sandbox (DECISIONS): ach and sepa one, wire and
 * balance the same day, swift two. Instant local schemes settle the same day; other batch
 * schemes in one business day.
 */
export const settlementBusinessDays: Readonly<Record<string, number>> = {
  ach: 1,
  sepa: 1,
  wire: 0,
  swift: 2,
  balance: 0,
  fps: 0,
  fast: 0,
  spei: 0,
  eft: 1,
  neft: 1,
  zengin: 1,
  bsb: 1,
}

const isWeekend = (date: Date) => date.getUTCDay() === 0 || date.getUTCDay() === 6
const nextDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1))

/**
 * The date (YYYY-MM-DD, UTC) a payment created at `at` is expected to complete: `at`'s date, or
 * the next business day when that is a weekend, plus the method's business days (Monday to
 * Friday; bank holidays are not modelled).
 *
 * @example
 * expectedCompletionDate(new Date("2026-11-20T15:00:00Z"), "ach") // "2026-11-23" (Friday + 1 business day)
 */
export const expectedCompletionDate = (at: Date, paymentMethod: string): string => {
  let date = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
  while (isWeekend(date)) date = nextDay(date)
  let remaining = settlementBusinessDays[paymentMethod] ?? 1
  while (remaining > 0) {
    date = nextDay(date)
    if (!isWeekend(date)) remaining -= 1
  }
  return isoDay(date)
}
