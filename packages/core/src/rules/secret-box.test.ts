import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { deriveSecretBoxKey, openSecret, sealSecret } from "./secret-box.ts"

const serverSecret = "server-secret-0123456789-abcdefghijklmnop"

describe("secret box", () => {
  it("opens what it sealed for the same row, and only that", async () => {
    const key = await deriveSecretBoxKey(serverSecret)
    const other = await deriveSecretBoxKey(`${serverSecret}!`)
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 80 }), fc.string({ minLength: 1 }), async (secret, row) => {
        const sealed = await sealSecret(key, row, secret)
        expect(sealed).not.toContain(secret.length >= 4 ? secret : "\u0000")
        expect(await openSecret(key, row, sealed)).toBe(secret)
        expect(await openSecret(key, `${row}x`, sealed)).toBeUndefined()
        expect(await openSecret(other, row, sealed)).toBeUndefined()
      }),
      { numRuns: 50 },
    )
  })

  it("seals one secret differently each time, and refuses an altered text", async () => {
    const key = await deriveSecretBoxKey(serverSecret)
    const a = await sealSecret(key, "we_1", "whsec_abc")
    const b = await sealSecret(key, "we_1", "whsec_abc")
    expect(a).not.toBe(b)
    expect(a).toMatch(/^aes-256-gcm:[0-9a-f]{8}:[\w-]{16}:[\w-]+$/)
    const parts = a.split(":")
    const last = parts[3]!
    const flipped = `${last.slice(0, -2)}${last.at(-2) === "A" ? "B" : "A"}${last.at(-1)}`
    expect(await openSecret(key, "we_1", [...parts.slice(0, 3), flipped].join(":"))).toBeUndefined()
    expect(await openSecret(key, "we_1", "whsec_abc")).toBeUndefined()
    expect(await openSecret(key, "we_1", `${a}:extra`)).toBeUndefined()
  })

  it("refuses a short server secret", async () => {
    await expect(deriveSecretBoxKey("x".repeat(31))).rejects.toThrow(RangeError)
  })
})
