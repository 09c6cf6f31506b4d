import { brandId, type Clock, type IdOf, type IdPrefix, type Ids } from "@payments-engine/core"

/** Crockford's base32 alphabet: no I, L, O, U; sorts the same as the values it encodes. */
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const timeChars = 10
const randomBits = 80n
const maxRandom = (1n << randomBits) - 1n
const maxTime = 2 ** 48 - 1

/** `length` base32 characters of a whole number below 2^53 (plain numbers: bigint steps are slow). */
const encode = (value: number, length: number): string => {
  let out = ""
  let rest = value
  for (let i = 0; i < length; i += 1) {
    out = alphabet[rest % 32] + out
    rest = Math.floor(rest / 32)
  }
  return out
}

const low40 = (1n << 40n) - 1n

/** The 80 random bits as 16 characters: two halves of 40 bits, 8 characters each. */
const encodeRandom = (random: bigint): string => encode(Number(random >> 40n), 8) + encode(Number(random & low40), 8)

/** Random bytes drawn 4 KiB at a time: one `getRandomValues` call per 409 ids instead of one each. */
const pool = new Uint8Array(4096)
let poolOffset = pool.length

const random80 = (): bigint => {
  if (poolOffset + 10 > pool.length) {
    crypto.getRandomValues(pool)
    poolOffset = 0
  }
  let value = 0n
  for (let i = poolOffset; i < poolOffset + 10; i += 1) value = (value << 8n) | BigInt(pool[i]!)
  poolOffset += 10
  return value
}

/**
 * The last id's time and random part, shared by every `randomIds()` of the process, so ids never
 * go backwards in a process even across instances or when the clock stands still or steps back.
 */
const last = { time: -1, random: 0n }

const nextPart = (now: number): { time: number; random: bigint } => {
  if (now > last.time) {
    last.time = Math.min(now, maxTime)
    last.random = random80()
  } else if (last.random < maxRandom) {
    last.random += 1n
  } else {
    // 2^80 ids in one millisecond: borrow the next millisecond.
    last.time += 1
    last.random = random80()
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
      const { time, random } = nextPart(Math.max(0, Math.trunc(now)))
      return brandId(prefix, `${prefix}_${encode(time, timeChars)}${encodeRandom(random)}`)
    },
  }
}
