import { describe, expect, it } from "vitest"
import { scryptHasher } from "./scrypt-hasher.ts"

// A low cost keeps the tests quick; one test uses the defaults.
const hasher = scryptHasher({ cost: 2 ** 10 })

describe("scryptHasher", () => {
  it("verifies the secret it hashed, with the default parameters too", async () => {
    const stored = await scryptHasher().hash("sk_live_secret")
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(await scryptHasher().verify("sk_live_secret", stored)).toBe(true)
  })

  it("answers false for another secret", async () => {
    const stored = await hasher.hash("sk_right")
    expect(await hasher.verify("sk_wrong", stored)).toBe(false)
    expect(await hasher.verify("", stored)).toBe(false)
  })

  it("salts every hash, and verifies hashes made with other parameters", async () => {
    const [a, b] = [await hasher.hash("same"), await hasher.hash("same")]
    expect(a).not.toBe(b)
    expect(await scryptHasher().verify("same", a)).toBe(true)
  })

  it("answers false, never throws, for a stored hash it cannot read", async () => {
    const good = await hasher.hash("secret")
    const [, n, r, p, salt, key] = good.split("$")
    const malformed = [
      "",
      "secret",
      "scrypt",
      "bcrypt$1024$8$1$c2FsdA$a2V5",
      `scrypt$${n}$${r}$${p}$${salt}`,
      `scrypt$${n}$${r}$${p}$${salt}$${key}$extra`,
      `scrypt$1000$${r}$${p}$${salt}$${key}`,
      `scrypt$${2 ** 30}$${r}$${p}$${salt}$${key}`,
      `scrypt$-1024$${r}$${p}$${salt}$${key}`,
      `scrypt$${n}$0$${p}$${salt}$${key}`,
      `scrypt$${n}$${r}$${p}$$${key}`,
      `scrypt$${n}$${r}$${p}$${salt}$not+base64/url`,
      `scrypt$${n}$${r}$${p}$${salt}$${key?.slice(0, 8)}`,
    ]
    for (const stored of malformed) expect(await hasher.verify("secret", stored)).toBe(false)
  })

  it("refuses parameters scrypt cannot use", () => {
    expect(() => scryptHasher({ cost: 1000 })).toThrow(RangeError)
    expect(() => scryptHasher({ cost: 2 ** 20, blockSize: 32 })).toThrow(RangeError)
  })
})
