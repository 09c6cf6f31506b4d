import { describe, expect, it } from "vitest"
import { checkHostedPageCsrfToken, deriveHostedPageCsrfKey, hostedPageCsrfToken } from "./hosted-page-csrf.ts"

const secret = "a-server-secret-of-at-least-32-characters!"

describe("hosted-page CSRF tokens", () => {
  it("bind to one jti under one secret, in one spelling", async () => {
    const key = await deriveHostedPageCsrfKey(secret)
    const csrf = await hostedPageCsrfToken(key, "hpt_1")
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await hostedPageCsrfToken(key, "hpt_1")).toBe(csrf)
    expect(await checkHostedPageCsrfToken(key, "hpt_1", csrf)).toBe(true)
    expect(await checkHostedPageCsrfToken(key, "hpt_2", csrf)).toBe(false)
    const other = await deriveHostedPageCsrfKey(`${secret}x`)
    expect(await checkHostedPageCsrfToken(other, "hpt_1", csrf)).toBe(false)
    // Every other final character, including those that differ only in base64url's spare bits.
    for (const last of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") {
      if (last === csrf.at(-1)) continue
      expect(await checkHostedPageCsrfToken(key, "hpt_1", `${csrf.slice(0, -1)}${last}`)).toBe(false)
    }
    for (const bad of ["", `${csrf}=`, `${csrf}A`, csrf.slice(0, -1), "+/+/", "x".repeat(65)]) {
      expect(await checkHostedPageCsrfToken(key, "hpt_1", bad)).toBe(false)
    }
  })

  it("refuses a short server secret", async () => {
    await expect(deriveHostedPageCsrfKey("short")).rejects.toThrow(RangeError)
  })
})
