import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { canonicalJson, requestFingerprint } from "./idempotency-fingerprint.ts"

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
  const request = { method: "POST", path: "/api/v1/companies", body: { name: "Acme", country: "US" } }

  it("is the same for the same request with keys reordered", async () => {
    const reordered = { ...request, body: { country: "US", name: "Acme" } }
    expect(await requestFingerprint(reordered)).toBe(await requestFingerprint(request))
  })

  it("differs when the method, path or body differ", async () => {
    const base = await requestFingerprint(request)
    expect(await requestFingerprint({ ...request, method: "PATCH" })).not.toBe(base)
    expect(await requestFingerprint({ ...request, path: "/api/v1/companies/x" })).not.toBe(base)
    expect(await requestFingerprint({ ...request, body: { name: "Acme", country: "GB" } })).not.toBe(base)
    expect(await requestFingerprint({ ...request, body: undefined })).not.toBe(base)
  })
})
