import { base64url, SignJWT } from "jose"
import { describe, expect, it } from "vitest"
import {
  deriveHostedPageKey,
  type HostedPageScope,
  hostedPageTokenAudience,
  hostedPageTokenIssuer,
  hostedPageTokenType,
  signHostedPageToken,
  verifyHostedPageToken,
} from "./hosted-page-jwt.ts"

const serverSecret = "server-secret-0123456789-abcdefghijklmnop"
const issuedAt = new Date("2026-01-01T00:00:00.000Z")
const later = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000)
const scope: HostedPageScope = {
  purpose: "recipient_add_bank_account",
  workspaceId: "ws_1",
  companyId: "cmp_1",
  entityId: "ent_1",
  recipientId: "rcp_1",
  returnUrl: "https://example.com/done",
}

/** A token with the hosted-page claims and header, signed with `key` as given. */
const signedWith = (key: CryptoKey | Uint8Array, header: { typ: string } = { typ: hostedPageTokenType }) =>
  new SignJWT({ purpose: "funding_accounts", workspace_id: "ws_1", company_id: "cmp_1", entity_id: "ent_1" })
    .setProtectedHeader({ alg: "HS256", ...header })
    .setIssuer(hostedPageTokenIssuer)
    .setAudience(hostedPageTokenAudience)
    .setJti("hpt_1")
    .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(issuedAt.getTime() / 1000) + 60)
    .sign(key)

describe("hosted-page JWTs", () => {
  it("carry their scope for 2 hours exactly", async () => {
    const key = await deriveHostedPageKey(serverSecret)
    const token = await signHostedPageToken(key, scope, "hpt_1", issuedAt)
    expect(await verifyHostedPageToken(key, token, later(7199))).toEqual({
      valid: true,
      claims: { ...scope, tokenId: "hpt_1", issuedAt, expiresAt: later(7200) },
    })
    expect(await verifyHostedPageToken(key, token, later(7200))).toEqual({ valid: false, reason: "expired" })
  })

  it("are refused under another server secret, and a token signed with the server secret itself is refused", async () => {
    const key = await deriveHostedPageKey(serverSecret)
    const other = await deriveHostedPageKey(`${serverSecret}!`)
    const token = await signHostedPageToken(key, scope, "hpt_1", issuedAt)
    expect(await verifyHostedPageToken(other, token, issuedAt)).toEqual({ valid: false, reason: "invalid" })
    // Key separation: the API's bearer tokens are signed with the raw secret. Even with every
    // claim and the header of a hosted-page token, such a token does not verify.
    const raw = await signedWith(new TextEncoder().encode(serverSecret))
    expect(await verifyHostedPageToken(key, raw, issuedAt)).toEqual({ valid: false, reason: "invalid" })
    expect(await verifyHostedPageToken(key, await signedWith(key), issuedAt)).toMatchObject({ valid: true })
  })

  it("are refused with another typ, or tampered", async () => {
    const key = await deriveHostedPageKey(serverSecret)
    expect(await verifyHostedPageToken(key, await signedWith(key, { typ: "JWT" }), issuedAt)).toEqual({
      valid: false,
      reason: "invalid",
    })
    const token = await signHostedPageToken(key, scope, "hpt_1", issuedAt)
    const [header, payload, signature] = token.split(".") as [string, string, string]
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload)))
    const longer = base64url.encode(JSON.stringify({ ...claims, exp: claims.exp + 3600 }))
    expect(await verifyHostedPageToken(key, `${header}.${longer}.${signature}`, issuedAt)).toEqual({
      valid: false,
      reason: "invalid",
    })
    const none = base64url.encode(JSON.stringify({ alg: "none", typ: hostedPageTokenType }))
    expect(await verifyHostedPageToken(key, `${none}.${payload}.`, issuedAt)).toEqual({
      valid: false,
      reason: "invalid",
    })
    expect(await verifyHostedPageToken(key, "x".repeat(5000), issuedAt)).toEqual({ valid: false, reason: "invalid" })
  })

  it("refuse a short server secret", async () => {
    await expect(deriveHostedPageKey("short")).rejects.toThrow(RangeError)
  })
})
