import { expect, it } from "vitest"
import { maxTestClockOffsetMs, offsetClock } from "./test-clock.ts"

it("follows the engine's clock and adds the workspace's offset", () => {
  let real = 1_000_000
  const engine = { now: () => new Date(real) }
  const clock = offsetClock(engine, 60_000)
  expect(clock.now().getTime()).toBe(1_060_000)
  real += 5
  expect(clock.now().getTime()).toBe(1_060_005)
  expect(offsetClock(engine, 0).now().getTime()).toBe(1_000_005)
})

it("keeps the longest offset inside what a Date holds", () => {
  expect(
    Number.isFinite(
      offsetClock({ now: () => new Date() }, maxTestClockOffsetMs)
        .now()
        .getTime(),
    ),
  ).toBe(true)
})
