import { describe, expect, it } from "vitest"
import {
  circuitAfter,
  circuitPosition,
  circuitThreshold,
  closedCircuit,
  coolDownMs,
  laneSizeFor,
  probing,
} from "./circuit-breaker.ts"

const at = new Date("2026-01-01T00:00:00.000Z")
const minutesAfter = (minutes: number) => new Date(at.getTime() + minutes * 60_000).toISOString()

describe("an endpoint's circuit", () => {
  it("stays closed below the threshold and opens for a minute when a run of failures reaches it", () => {
    const four = circuitAfter(closedCircuit, [false, false, false, false], at)
    expect(four).toEqual({ consecutive_failures: 4, circuit_open_until: null, failing_since: at.toISOString() })
    expect(circuitAfter(four, [false], new Date(minutesAfter(3)))).toEqual({
      consecutive_failures: 5,
      circuit_open_until: minutesAfter(4),
      failing_since: at.toISOString(),
    })
  })

  it("opens for a minute after a whole lane of failures, however long", () => {
    expect(circuitAfter(closedCircuit, Array(50).fill(false), at)).toEqual({
      consecutive_failures: circuitThreshold,
      circuit_open_until: minutesAfter(1),
      failing_since: at.toISOString(),
    })
  })

  it("doubles the cool-down with each failed probe, up to an hour", () => {
    expect([5, 6, 7, 8, 9, 10, 11, 40].map((failures) => coolDownMs(failures) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60,
    ])
    const open = { consecutive_failures: 5, circuit_open_until: minutesAfter(1), failing_since: minutesAfter(-5) }
    expect(circuitAfter(open, [false], at)).toEqual({
      consecutive_failures: 6,
      circuit_open_until: minutesAfter(2),
      failing_since: minutesAfter(-5),
    })
  })

  it("closes on any 200 and is left as it was when nothing was attempted", () => {
    const open = { consecutive_failures: 7, circuit_open_until: minutesAfter(4), failing_since: minutesAfter(-9) }
    expect(circuitAfter(open, [false, true], at)).toEqual(closedCircuit)
    expect(circuitAfter(open, [], at)).toBe(open)
  })

  it("is open until its time, then half-open; a probe holds it open for the next cool-down", () => {
    const open = { consecutive_failures: 5, circuit_open_until: minutesAfter(1), failing_since: null }
    expect(circuitPosition(closedCircuit, at.toISOString())).toBe("closed")
    expect(circuitPosition(open, at.toISOString())).toBe("open")
    expect(circuitPosition(open, minutesAfter(1))).toBe("half_open")
    expect(probing(open, new Date(minutesAfter(1)))).toEqual({
      consecutive_failures: 5,
      circuit_open_until: minutesAfter(3),
      failing_since: null,
    })
  })

  it("shrinks the lane of a failing endpoint to what it takes to open the circuit", () => {
    expect(laneSizeFor(closedCircuit, 50)).toBe(50)
    expect(laneSizeFor({ ...closedCircuit, consecutive_failures: 1 }, 50)).toBe(4)
    expect(laneSizeFor({ ...closedCircuit, consecutive_failures: 4 }, 50)).toBe(1)
    expect(laneSizeFor({ ...closedCircuit, consecutive_failures: 9 }, 50)).toBe(1)
  })
})
