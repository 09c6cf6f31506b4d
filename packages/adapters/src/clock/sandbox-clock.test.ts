import { expect, it } from "vitest"
import { SandboxClock } from "./sandbox-clock.ts"

it("follows real time and adds what it was advanced by", () => {
  let real = 1_000_000
  const clock = new SandboxClock(() => real)
  expect(clock.now().getTime()).toBe(1_000_000)
  clock.advance(60_000)
  real += 5
  expect(clock.now().getTime()).toBe(1_060_005)
  expect(() => clock.advance(-1)).toThrow(RangeError)
  expect(() => clock.advance(Number.NaN)).toThrow(RangeError)
})
