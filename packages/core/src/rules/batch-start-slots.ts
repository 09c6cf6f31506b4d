/**
 * How a batch's payments are spaced so that no one-second window holds more than its rate of
 * starts, measured when each payment is submitted to the provider (DECISIONS "Payment
 * batches", Rate). Slots are handed out one after another, an interval apart (storage keeps the
 * next one, shared by every process); a lane waits for its slot and then submits, which a busy
 * event loop or a slow transaction can delay. A start is therefore taken only within a
 * tolerance of its slot (a lane woken later gives its slot up and takes another), and the
 * interval leaves room for that tolerance: any `perSecond + 1` starts span more than a second.
 */

/** The least a start may be late on its slot, in milliseconds, at any rate. */
export const minimumStartToleranceMs = 10

/**
 * The milliseconds between two start slots of a batch at `perSecond`: one second, the least
 * tolerance and a millisecond (so that even a window closed at both ends holds no more), shared
 * by the rate's starts, rounded up.
 *
 * @example
 * startSlotIntervalMs(20) // 51
 */
export const startSlotIntervalMs = (perSecond: number): number =>
  Math.ceil((1000 + minimumStartToleranceMs + 1) / perSecond)

/**
 * How late after its slot a payment may still start on it at `perSecond`: all that
 * `perSecond` rounded-up intervals leave beyond a second and a millisecond, at least
 * {@link minimumStartToleranceMs}.
 *
 * @example
 * startToleranceMs(20) // 19: 20 slots of 51 ms span 1,020 ms
 */
export const startToleranceMs = (perSecond: number): number => perSecond * startSlotIntervalMs(perSecond) - 1001

/**
 * The slot a caller gets at `now` (epoch milliseconds), and the batch's next slot after it:
 * the later of `now` and the batch's `next`, then one `interval` on. What
 * `paymentBatches.takeSlot` stores.
 *
 * @example
 * takeStartSlot(undefined, 1000, 51) // { slot: 1000, next: 1051 }
 * takeStartSlot(1051, 1010, 51) // { slot: 1051, next: 1102 }
 */
export const takeStartSlot = (
  next: number | undefined,
  now: number,
  interval: number,
): { readonly slot: number; readonly next: number } => {
  const slot = next !== undefined && next > now ? next : now
  return { slot, next: slot + interval }
}

/**
 * Whether a payment of a batch at `perSecond` may start at `now` on `slot`: when it is at most
 * {@link startToleranceMs} past the slot. A clock behind the slot (a test clock standing still
 * while real time passes) starts too: its time does not move, so waiting longer gains nothing.
 *
 * @example
 * startsOnSlot(1000, 1019, 20) // true
 * startsOnSlot(1000, 1020, 20) // false: take another slot
 */
export const startsOnSlot = (slot: number, now: number, perSecond: number): boolean =>
  now - slot <= startToleranceMs(perSecond)
