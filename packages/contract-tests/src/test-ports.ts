import { brandId, type Clock, type Ids, type SecretHasher, type ServerSecret } from "@payments-engine/core"

/** Where every test clock starts: a fixed instant, so timestamps are predictable. */
export const testEpoch = new Date("2030-01-01T00:00:00.000Z")

/** A clock that stands still until a test moves it. */
export interface TestClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void
}

/**
 * A clock that stands still until a test moves it.
 *
 * @example
 * const clock = testClock()
 * clock.advance(24 * 60 * 60 * 1000)
 */
export const testClock = (start: Date = testEpoch): TestClock => {
  let now = start.getTime()
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms
    },
  }
}

const randomTag = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(6))
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("")
}

/**
 * This process's tag in ids and workspace names: a storage that is shared (a Postgres database
 * that several test files or an earlier run used) never sees the same id twice.
 */
export const processTag = randomTag()

let counter = 0

/** The next number of this process: one counter for every test, so ids and names never repeat. */
export const nextNumber = (): number => {
  counter += 1
  return counter
}

/**
 * Ids made of a resource prefix, a tag and a counter of fixed width: time-ordered by
 * construction, whatever the clock says. `tag` stands for one process; two engines with two tags
 * behave like two processes sharing a database.
 *
 * @example
 * counterIds().next("cmp") // "cmp_k3x9q0_000000000001"
 */
export const counterIds = (tag: string = processTag): Ids => ({
  next: (prefix) => brandId(prefix, `${prefix}_${tag}_${String(nextNumber()).padStart(12, "0")}`),
})

/** A hasher with no cost: the suite tests storage, not cryptography. Never use it outside tests. */
export const plainHasher: SecretHasher = {
  hash: async (secret) => `plain:${secret}`,
  verify: async (secret, hash) => hash === `plain:${secret}`,
}

/** The server secret of the suite's engines: a fixed one, as every process of a deployment shares one. */
export const testServerSecret: ServerSecret = { read: async () => "contract-suite-server-secret-0123456789abcdef" }
