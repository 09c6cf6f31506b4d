import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  minimumStartToleranceMs,
  startSlotIntervalMs,
  startsOnSlot,
  startToleranceMs,
  takeStartSlot,
} from "./batch-start-slots.ts"

/** One lane's steps: how late it wakes for each slot, and how long each provider call takes. */
const laneSteps = fc.array(
  fc.record({
    // Mostly on time, sometimes a little late, sometimes far past the tolerance (a blocked event loop).
    lateMs: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 400 })),
    callMs: fc.integer({ min: 0, max: 120 }),
  }),
  { minLength: 1, maxLength: 40 },
)

/**
 * Lanes of one batch run against the shared slot rule, in time order: each asks for a slot
 * (`takeStartSlot`), wakes at it plus its lateness, starts when `startsOnSlot` lets it (then
 * calls the provider and asks again), else asks again at once. Answers the start times.
 */
const simulate = (perSecond: number, lanes: ReadonlyArray<ReadonlyArray<{ lateMs: number; callMs: number }>>) => {
  const interval = startSlotIntervalMs(perSecond)
  let next: number | undefined
  const starts: Array<number> = []
  const state = lanes.map((steps, i) => ({ steps, step: 0, askAt: i }))
  for (;;) {
    const waiting = state.filter((lane) => lane.step < lane.steps.length)
    if (waiting.length === 0) return starts
    const lane = waiting.reduce((a, b) => (b.askAt < a.askAt ? b : a))
    const taken = takeStartSlot(next, lane.askAt, interval)
    next = taken.next
    const { lateMs, callMs } = lane.steps[lane.step]!
    const woken = Math.max(taken.slot, lane.askAt) + lateMs
    if (startsOnSlot(taken.slot, woken, perSecond)) {
      starts.push(woken)
      lane.step += 1
      lane.askAt = woken + callMs
    } else {
      // A late lane gives its slot up; the next time it is not as late (the loop freed up).
      lane.askAt = woken
      lane.steps = lane.steps.map((s, i) => (i === lane.step ? { ...s, lateMs: 0 } : s))
    }
  }
}

/** The most starts in any one-second window closed at both ends. */
const busiestSecond = (starts: ReadonlyArray<number>) => {
  const sorted = [...starts].sort((a, b) => a - b)
  let most = 0
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[i]! - sorted[j]! > 1000) j += 1
    most = Math.max(most, i - j + 1)
  }
  return most
}

describe("batch start slots", () => {
  it("never let more than the rate start in any one-second window, however late lanes wake", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(laneSteps, { minLength: 1, maxLength: 8 }),
        (perSecond, lanes) => {
          expect(busiestSecond(simulate(perSecond, lanes))).toBeLessThanOrEqual(perSecond)
        },
      ),
      { numRuns: 300 },
    )
  })

  it("start every payment whose lane is on time, each an interval after the last", () => {
    const starts = simulate(20, [Array.from({ length: 30 }, () => ({ lateMs: 0, callMs: 0 }))])
    expect(starts).toHaveLength(30)
    expect(starts.slice(1).map((at, i) => at - starts[i]!)).toEqual(Array(29).fill(startSlotIntervalMs(20)))
  })

  it("space slots by a second and the least tolerance shared by the rate, and give a start all the tolerance the rounding leaves", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (perSecond) => {
        const interval = startSlotIntervalMs(perSecond)
        expect(Number.isInteger(interval) && interval >= 1).toBe(true)
        expect(startToleranceMs(perSecond)).toBeGreaterThanOrEqual(minimumStartToleranceMs)
        // perSecond + 1 starts, the first as late as allowed, span more than a second.
        expect(perSecond * interval - startToleranceMs(perSecond)).toBe(1001)
      }),
    )
    expect(startSlotIntervalMs(20)).toBe(51)
    expect(startToleranceMs(20)).toBe(19)
    expect(startSlotIntervalMs(1)).toBe(1011)
    expect(takeStartSlot(undefined, 500, 51)).toEqual({ slot: 500, next: 551 })
    expect(takeStartSlot(551, 510, 51)).toEqual({ slot: 551, next: 602 })
    expect(takeStartSlot(551, 900, 51)).toEqual({ slot: 900, next: 951 })
    expect(startsOnSlot(1000, 1019, 20)).toBe(true)
    expect(startsOnSlot(1000, 1020, 20)).toBe(false)
    expect(startsOnSlot(1000, 990, 20)).toBe(true)
  })
})
