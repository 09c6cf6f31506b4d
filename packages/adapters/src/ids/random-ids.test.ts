import { describe, expect, it, vi } from "vitest"
import { TestClock } from "../clock/test-clock.ts"
import { randomIds } from "./random-ids.ts"

const shape = /^cmp_[0-9A-HJKMNP-TV-Z]{26}$/
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const timeOf = (id: string) =>
  [...id.slice(id.indexOf("_") + 1, id.indexOf("_") + 11)].reduce((n, c) => n * 32 + crockford.indexOf(c), 0)

describe("randomIds", () => {
  it("makes the prefix, an underscore and 26 Crockford base32 characters", () => {
    const ids = randomIds()
    expect(ids.next("cmp")).toMatch(shape)
    expect(ids.next("pay")).toMatch(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/)
  })

  it("starts with the clock's milliseconds", () => {
    const clock = new TestClock(new Date("2100-01-01T00:00:00.000Z"))
    const id = randomIds({ clock }).next("cmp")
    expect(timeOf(id)).toBe(clock.now().getTime())
  })

  it("sorts in creation order while the clock stands still", () => {
    const ids = randomIds({ clock: new TestClock(new Date("2101-01-01T00:00:00.000Z")) })
    const made = Array.from({ length: 2000 }, () => ids.next("cmp"))
    expect(new Set(made).size).toBe(made.length)
    expect([...made].sort()).toEqual(made)
  })

  it("sorts in creation order when the clock steps back, across instances of the process", () => {
    const clock = new TestClock(new Date("2102-01-01T00:00:00.000Z"))
    const first = randomIds({ clock }).next("cmp")
    clock.advance(-60_000)
    const second = randomIds({ clock }).next("cmp")
    expect(second > first).toBe(true)
  })

  it("never repeats", () => {
    const ids = randomIds()
    const made = Array.from({ length: 20_000 }, () => ids.next("evt"))
    expect(new Set(made).size).toBe(made.length)
  })

  it("differs between processes that start in the same millisecond", async () => {
    const clock = new TestClock(new Date("2103-01-01T00:00:00.000Z"))
    vi.resetModules()
    const one = (await import("./random-ids.ts")).randomIds({ clock }).next("cmp")
    vi.resetModules()
    const other = (await import("./random-ids.ts")).randomIds({ clock }).next("cmp")
    expect(timeOf(one)).toBe(timeOf(other))
    expect(one).not.toBe(other)
  })
})
