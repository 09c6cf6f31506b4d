import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  canonicalJson,
  comparableFingerprints,
  deriveFingerprintKey,
  erasedFingerprint,
  requestFingerprint,
} from "./idempotency-fingerprint.ts"

const shuffleKeys = (value: unknown, seed: number): unknown => {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, seed))
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
    const rotated = entries.map((_, i) => entries[(i + seed) % entries.length]!)
    return Object.fromEntries(rotated.map(([k, v]) => [k, shuffleKeys(v, seed)]))
  }
  return value
}

describe("canonicalJson", () => {
  it("ignores key order at every depth and still parses to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(10), (value, seed) => {
        expect(canonicalJson(shuffleKeys(value, seed))).toBe(canonicalJson(value))
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })
})

describe("requestFingerprint", () => {
  const secret = "server-secret-0123456789-abcdefghijklmnop"
  const request = { method: "POST", path: "/api/v1/companies", body: { name: "Acme", country: "US" } }

  it("is the same for the same request with keys reordered", async () => {
    const key = await deriveFingerprintKey(secret)
    const reordered = { ...request, body: { country: "US", name: "Acme" } }
    expect(await requestFingerprint(key, reordered)).toBe(await requestFingerprint(key, request))
  })

  it("differs when the method, path or body differ", async () => {
    const key = await deriveFingerprintKey(secret)
    const base = await requestFingerprint(key, request)
    expect(await requestFingerprint(key, { ...request, method: "PATCH" })).not.toBe(base)
    expect(await requestFingerprint(key, { ...request, path: "/api/v1/companies/x" })).not.toBe(base)
    expect(await requestFingerprint(key, { ...request, body: { name: "Acme", country: "GB" } })).not.toBe(base)
    expect(await requestFingerprint(key, { ...request, body: undefined })).not.toBe(base)
  })

  it("is an HMAC under a key of the server secret, named by an id that is the same for the same secret", async () => {
    const key = await deriveFingerprintKey(secret)
    const fingerprint = await requestFingerprint(key, request)
    expect(fingerprint).toMatch(/^hmac-sha256:[0-9a-f]{8}:[0-9a-f]{64}$/)
    expect(fingerprint.split(":")[1]).toBe(key.id)
    expect(await requestFingerprint(await deriveFingerprintKey(secret), request)).toBe(fingerprint)
    const other = await deriveFingerprintKey(`${secret}!`)
    expect(other.id).not.toBe(key.id)
    expect((await requestFingerprint(other, request)).split(":")[2]).not.toBe(fingerprint.split(":")[2])
  })

  it("is not the SHA-256 of the request, nor an HMAC keyed by the secret itself", async () => {
    const key = await deriveFingerprintKey(secret)
    const mac = (await requestFingerprint(key, request)).split(":")[2]
    const text = `POST\n${request.path}\n${canonicalJson(request.body)}`
    const bytes = new TextEncoder().encode(text)
    const hex = (buffer: ArrayBuffer) =>
      Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")
    expect(mac).not.toBe(hex(await crypto.subtle.digest("SHA-256", bytes)))
    const raw = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    )
    expect(mac).not.toBe(hex(await crypto.subtle.sign("HMAC", raw, bytes)))
  })

  it("refuses a server secret shorter than 32 characters", async () => {
    await expect(deriveFingerprintKey("x".repeat(31))).rejects.toThrow(RangeError)
    await expect(deriveFingerprintKey("")).rejects.toThrow("at least 32 characters")
  })
})

describe("comparableFingerprints", () => {
  it("compares fingerprints of one scheme and key only; an erased one or another key's cannot be", async () => {
    const key = await deriveFingerprintKey("server-secret-0123456789-abcdefghijklmnop")
    const other = await deriveFingerprintKey("another-secret-0123456789-abcdefghijklmn")
    const request = { method: "POST", path: "/api/v1/companies", body: { name: "Acme" } }
    const mine = await requestFingerprint(key, request)
    const mineForAnother = await requestFingerprint(key, { ...request, body: { name: "Other" } })
    expect(comparableFingerprints(mine, mineForAnother)).toBe(true)
    expect(comparableFingerprints(await requestFingerprint(other, request), mine)).toBe(false)
    expect(comparableFingerprints(erasedFingerprint, mine)).toBe(false)
    expect(comparableFingerprints("3f".repeat(32), mine)).toBe(false)
  })
})
