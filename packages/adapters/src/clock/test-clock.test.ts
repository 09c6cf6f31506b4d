import { describe, expect, it } from "vitest"
import { systemClock } from "./system-clock.ts"
import { TestClock } from "./test-clock.ts"

describe("TestClock", () => {
  const start = new Date("2025-01-01T00:00:00.000Z")

  it("starts at the given date and stands still", () => {
    const clock = new TestClock(start)
    expect(clock.now().toISOString()).toBe("2025-01-01T00:00:00.000Z")
    expect(clock.now()).toEqual(clock.now())
  })

  it("moves by advance, forwards and back, and jumps with set", () => {
    const clock = new TestClock(start)
    clock.advance(24 * 60 * 60 * 1000 + 1)
    expect(clock.now().toISOString()).toBe("2025-01-02T00:00:00.001Z")
    clock.advance(-1)
    expect(clock.now().toISOString()).toBe("2025-01-02T00:00:00.000Z")
    clock.set(new Date("2030-06-01T10:00:00.000Z"))
    expect(clock.now().toISOString()).toBe("2030-06-01T10:00:00.000Z")
  })

  it("cannot be moved through the dates it hands out or was given", () => {
    const given = new Date(start)
    const clock = new TestClock(given)
    given.setFullYear(1999)
    clock.now().setFullYear(1999)
    expect(clock.now().toISOString()).toBe("2025-01-01T00:00:00.000Z")
  })

  it("refuses invalid dates and amounts", () => {
    expect(() => new TestClock(new Date("nope"))).toThrow(RangeError)
    const clock = new TestClock(start)
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError)
    expect(() => clock.set(new Date(Number.NaN))).toThrow(RangeError)
    expect(clock.now().toISOString()).toBe("2025-01-01T00:00:00.000Z")
  })
})

describe("systemClock", () => {
  it("tells the machine's time", () => {
    const before = Date.now()
    const now = systemClock.now().getTime()
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(Date.now())
  })
})
