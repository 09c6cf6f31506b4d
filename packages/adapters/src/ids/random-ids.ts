import { brandId, type Clock, type IdOf, type IdPrefix, type Ids } from "@payments-engine/core"

/** Crockford's base32 alphabet: no I, L, O, U; sorts the same as the values it encodes. */
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const timeChars = 10
const maxTime = 2 ** 48 - 1
/** The random part is two halves of 40 bits each, plain numbers: bigint arithmetic cost 1 % of a quote + payment pair. */
const halfBits = 40
const maxHalf = 2 ** halfBits - 1

/** `length` base32 characters of a whole number below 2^53. */
const encode = (value: number, length: number): string => {
  let out = ""
  let rest = value
  for (let i = 0; i < length; i += 1) {
    out = alphabet[rest % 32] + out
    rest = Math.floor(rest / 32)
  }
  return out
}

/** Random bytes drawn 4 KiB at a time: one `getRandomValues` call per 409 ids instead of one each. */
const pool = new Uint8Array(4096)
let poolOffset = pool.length

/** The next 40 random bits of the pool, as a number. */
const randomHalf = (): number => {
  let value = 0
  for (let i = poolOffset; i < poolOffset + halfBits / 8; i += 1) value = value * 256 + (pool[i] as number)
  poolOffset += halfBits / 8
  return value
}

/** Fresh random bits for both halves. */
const drawRandom = (part: { high: number; low: number }): void => {
  if (poolOffset + (2 * halfBits) / 8 > pool.length) {
    crypto.getRandomValues(pool)
    poolOffset = 0
  }
  part.high = randomHalf()
  part.low = randomHalf()
}

/**
 * The last id's time and random part, shared by every `randomIds()` of the process, so ids never
 * go backwards in a process even across instances or when the clock stands still or steps back.
 */
const last = { time: -1, high: 0, low: 0 }

const nextPart = (now: number): typeof last => {
  if (now > last.time) {
    last.time = Math.min(now, maxTime)
    drawRandom(last)
  } else if (last.low < maxHalf) {
    last.low += 1
  } else if (last.high < maxHalf) {
    last.high += 1
    last.low = 0
  } else {
    // 2^80 ids in one millisecond: borrow the next millisecond.
    last.time += 1
    drawRandom(last)
  }
  return last
}

/** Options of {@link randomIds}. */
export interface RandomIdsOptions {
  /** Source of the time part; the system time by default. */
  readonly clock?: Clock
}

/**
 * Ids like `cmp_01JD7Z3K6W9Q2M4T8B5N1R0XYZ`: the prefix, then 26 Crockford base32 characters,
 * a ULID-like value of 48 bits of milliseconds and 80 random bits (`crypto.getRandomValues`).
 * Within a process they sort in creation order, also when the clock does not move (the random
 * part is incremented then); across processes they differ by their random bits.
 *
 * @example
 * const ids = randomIds()
 * ids.next("cmp") // "cmp_01JD7Z3K6W9Q2M4T8B5N1R0XYZ"
 */
export const randomIds = (options: RandomIdsOptions = {}): Ids => {
  const clock = options.clock
  return {
    next<P extends IdPrefix>(prefix: P): IdOf<P> {
      const now = clock === undefined ? Date.now() : clock.now().getTime()
      const { time, high, low } = nextPart(Math.max(0, Math.trunc(now)))
      return brandId(prefix, `${prefix}_${encode(time, timeChars)}${encode(high, 8)}${encode(low, 8)}`)
    },
  }
}
