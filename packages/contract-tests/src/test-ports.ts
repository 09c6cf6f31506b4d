import {
  type BlobStore,
  brandId,
  type Clock,
  type FileTypeDetector,
  type Ids,
  type SecretHasher,
  type ServerSecret,
} from "@payments-engine/core"

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

/** The suite's blob store: bytes in memory by key, with the keys it holds for a test to look at. */
export interface TestBlobStore extends BlobStore {
  /** Whether bytes are held under `key`. */
  has(key: string): boolean
}

/**
 * A blob store in memory for the suite's engines: the storage under test keeps attachment rows,
 * this keeps their bytes (the adapters' blob stores are tested on their own).
 */
export const testBlobStore = (): TestBlobStore => {
  const blobs = new Map<string, Uint8Array>()
  return {
    has: (key) => blobs.has(key),
    put: async (key, bytes) => {
      const chunks: Array<number> = []
      for await (const chunk of bytes instanceof Uint8Array ? [bytes] : bytes) chunks.push(...chunk)
      const whole = Uint8Array.from(chunks)
      blobs.set(key, whole)
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", whole))
      return { size: whole.length, sha256: Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("") }
    },
    get: async (key) => {
      const bytes = blobs.get(key)
      if (bytes === undefined) return undefined
      const copy = bytes.slice()
      return (async function* () {
        yield copy
      })()
    },
    delete: async (key) => blobs.delete(key),
  }
}

const startsWith = (bytes: Uint8Array, magic: ReadonlyArray<number>) => magic.every((byte, i) => bytes[i] === byte)

/**
 * Tells PDF, PNG and JPEG apart by their magic numbers, as the adapters' detector does for the
 * suite's tiny files; anything else is unknown.
 */
export const testFileTypeDetector: FileTypeDetector = {
  detect: async (bytes) =>
    startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])
      ? "application/pdf"
      : startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        ? "image/png"
        : startsWith(bytes, [0xff, 0xd8, 0xff])
          ? "image/jpeg"
          : undefined,
}
