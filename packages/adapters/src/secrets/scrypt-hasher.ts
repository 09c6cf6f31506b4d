import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto"
import type { SecretHasher } from "@payments-engine/core"

/**
 * Options of {@link scryptHasher}. The defaults (N = 2^15, r = 8, p = 1) take 32 MiB and tens of
 * milliseconds per hash; raise `cost` where logins are rare.
 */
export interface ScryptHasherOptions {
  /** CPU/memory cost N, a power of two. 2^15 by default. */
  readonly cost?: number
  /** Block size r. 8 by default. */
  readonly blockSize?: number
  /** Parallelization p. 1 by default. */
  readonly parallelization?: number
}

const saltBytes = 16
const keyBytes = 32
/** Bounds on parameters read back from a stored hash, so a corrupt row cannot exhaust memory. */
const maxCost = 2 ** 20
const maxMemoryBytes = 256 * 1024 * 1024
const maxBlockSize = 32
const maxParallelization = 16

const derive = (secret: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scrypt(secret, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)))
  })

const scryptOptions = (cost: number, blockSize: number, parallelization: number): ScryptOptions => ({
  N: cost,
  r: blockSize,
  p: parallelization,
  maxmem: 128 * cost * blockSize * parallelization + 32 * 1024 * 1024,
})

const validParameters = (cost: number, blockSize: number, parallelization: number): boolean =>
  Number.isSafeInteger(cost) &&
  cost > 1 &&
  cost <= maxCost &&
  (cost & (cost - 1)) === 0 &&
  Number.isSafeInteger(blockSize) &&
  blockSize >= 1 &&
  blockSize <= maxBlockSize &&
  Number.isSafeInteger(parallelization) &&
  parallelization >= 1 &&
  parallelization <= maxParallelization &&
  128 * cost * blockSize * parallelization <= maxMemoryBytes

const decimal = /^[1-9][0-9]{0,9}$/
const base64url = /^[A-Za-z0-9_-]+$/

/**
 * Hashes secrets with Node's scrypt and a random 16-byte salt. The result describes itself,
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url), so hashes made with other parameters still
 * verify. `verify` compares in constant time, and answers false, never throws, for a stored hash
 * it cannot read.
 *
 * @example
 * const hasher = scryptHasher()
 * const stored = await hasher.hash("sk_secret")
 * await hasher.verify("sk_secret", stored) // true
 */
export const scryptHasher = (options: ScryptHasherOptions = {}): SecretHasher => {
  const { cost = 2 ** 15, blockSize = 8, parallelization = 1 } = options
  if (!validParameters(cost, blockSize, parallelization)) {
    throw new RangeError(
      `scryptHasher: cost must be a power of two up to 2^20, blockSize 1-32, parallelization 1-16, using at most 256 MiB; got ${cost}, ${blockSize}, ${parallelization}`,
    )
  }
  return {
    async hash(secret) {
      const salt = randomBytes(saltBytes)
      const key = await derive(secret, salt, keyBytes, scryptOptions(cost, blockSize, parallelization))
      return ["scrypt", cost, blockSize, parallelization, salt.toString("base64url"), key.toString("base64url")].join(
        "$",
      )
    },
    async verify(secret, stored) {
      try {
        const parts = stored.split("$")
        if (parts.length !== 6 || parts[0] !== "scrypt") return false
        const [, n, r, p, saltText, keyText] = parts as [string, string, string, string, string, string]
        if (![n, r, p].every((part) => decimal.test(part))) return false
        if (!base64url.test(saltText) || !base64url.test(keyText)) return false
        const [N, R, P] = [Number(n), Number(r), Number(p)]
        if (!validParameters(N, R, P)) return false
        const salt = Buffer.from(saltText, "base64url")
        const expected = Buffer.from(keyText, "base64url")
        if (salt.length === 0 || expected.length < 16) return false
        const actual = await derive(secret, salt, expected.length, scryptOptions(N, R, P))
        return timingSafeEqual(actual, expected)
      } catch {
        return false
      }
    },
  }
}
