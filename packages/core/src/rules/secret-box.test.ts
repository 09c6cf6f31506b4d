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

  it("keeps each purpose apart: a tax id sealed under its key opens under no other, and the webhook key is unchanged", async () => {
    const webhook = await deriveSecretBoxKey(serverSecret)
    const sameWebhook = await deriveSecretBoxKey(serverSecret, "webhook-endpoint-secret")
    const taxIds = await deriveSecretBoxKey(serverSecret, "person-tax-id")
    expect(taxIds.id).not.toBe(webhook.id)
    expect(sameWebhook.id).toBe(webhook.id)
    const sealed = await sealSecret(taxIds, "pid_1", "123-45-6789")
    expect(await openSecret(taxIds, "pid_1", sealed)).toBe("123-45-6789")
    expect(await openSecret(webhook, "pid_1", sealed)).toBeUndefined()
    expect(await openSecret(sameWebhook, "we_1", await sealSecret(webhook, "we_1", "whsec_abc"))).toBe("whsec_abc")
  })

  it("refuses a short server secret", async () => {
    await expect(deriveSecretBoxKey("x".repeat(31))).rejects.toThrow(RangeError)
  })
})
