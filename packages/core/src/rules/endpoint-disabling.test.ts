import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { circuitAfter, circuitThreshold, closedCircuit } from "./circuit-breaker.ts"
import { disableAfterFailingMs, failingLongEnough } from "./endpoint-disabling.ts"

const start = new Date("2026-01-01T00:00:00.000Z")
const after = (ms: number) => new Date(start.getTime() + ms)

describe("disabling a failing endpoint", () => {
  it("waits for five days of failures from the first, with at least five in a row", () => {
    const failing = circuitAfter(closedCircuit, Array(circuitThreshold).fill(false), start)
    expect(failing.failing_since).toBe(start.toISOString())
    expect(failingLongEnough(failing, after(disableAfterFailingMs - 1))).toBe(false)
    expect(failingLongEnough(failing, after(disableAfterFailingMs))).toBe(true)
  })

  it("does not count a lone failure days after another as days of failing", () => {
    const two = circuitAfter(circuitAfter(closedCircuit, [false], start), [false], after(6 * 86_400_000))
    expect(two.consecutive_failures).toBe(2)
    expect(failingLongEnough(two, after(6 * 86_400_000))).toBe(false)
  })

  it("starts over after any 200", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }), fc.nat(10 * 86_400_000), (lane, ms) => {
        const failing = circuitAfter(closedCircuit, Array(circuitThreshold).fill(false), start)
        const next = circuitAfter(failing, lane, after(ms))
        expect(failingLongEnough(next, after(ms))).toBe(!lane.includes(true) && ms >= disableAfterFailingMs)
      }),
    )
  })
})
