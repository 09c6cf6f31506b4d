import { createHmac } from "node:crypto"
import type { Actor, AuthenticatedKey } from "@payments-engine/core"
import { ApiKeyId, WorkspaceId } from "@payments-engine/core"
import { jwtVerify, SignJWT } from "jose"
import { describe, expect, it } from "vitest"
import { bearerTokens, tokenAudience, tokenIssuer } from "../src/binding/bearer-tokens.ts"

// The token checks on their own, against jose as the reference: tokens either signs must verify
// with the other, and every token jose refuses must be refused.

const secret = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
const otherSecret = "another-secret-0123456789-abcdefghijklmnopqrstuvw"
const start = Math.floor(new Date("2026-01-01T00:00:00.000Z").getTime() / 1000)
let nowSeconds = start
const clock = { now: () => new Date(nowSeconds * 1000) }
const tokens = bearerTokens({
  secret,
  clock,
  keyCacheSeconds: 0,
  confirm: async (claims) => ({ workspaceId: claims.workspaceId, keyId: claims.keyId, scope: claims.scope }),
})
const actor: Actor = { workspaceId: WorkspaceId.make("ws_1"), keyId: ApiKeyId.make("key_1"), scope: "write" }
const key: AuthenticatedKey = { ...actor, keyId: ApiKeyId.make("key_1"), endsBy: null } as AuthenticatedKey
const claims = { workspace_id: "ws_1", scope: "write", sub: "key_1" }

const bytes = (text: string) => new TextEncoder().encode(text)
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** A token as jose signs it: our claims unless `extra` says otherwise, header `alg` only unless told. */
const joseToken = (
  options: { header?: Record<string, unknown>; extra?: Record<string, unknown>; key?: string; exp?: number } = {},
) =>
  new SignJWT({
    ...claims,
    iss: tokenIssuer,
    aud: tokenAudience,
    iat: start,
    exp: options.exp ?? start + 3600,
    ...options.extra,
  })
    .setProtectedHeader({ alg: "HS256", ...options.header } as { alg: string })
    .sign(bytes(options.key ?? secret))

/** A token signed by hand with the secret: for headers jose will not sign with. */
const handSigned = (header: Record<string, unknown>, payload = joseClaimsPart) => {
  const input = `${part(header)}.${payload}`
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`
}
const joseClaimsPart = part({ ...claims, iss: tokenIssuer, aud: tokenAudience, iat: start, exp: start + 3600 })

const joseAccepts = async (token: string) => {
  try {
    await jwtVerify(token, bytes(secret), {
      algorithms: ["HS256"],
      issuer: tokenIssuer,
      audience: tokenAudience,
      currentDate: clock.now(),
      requiredClaims: ["iat", "exp", "sub"],
    })
    return true
  } catch {
    return false
  }
}

/** Both verifiers' answers: ours (an actor or not) and jose's. */
const verdicts = async (token: string) => ({
  ours: (await tokens.verify(token)) !== undefined,
  jose: await joseAccepts(token),
})

const refusedByBoth = async (token: string) => expect(await verdicts(token)).toEqual({ ours: false, jose: false })
const acceptedByBoth = async (token: string) => expect(await verdicts(token)).toEqual({ ours: true, jose: true })

describe("bearer token signatures", () => {
  it("issues the very bytes jose signs, and jose verifies them", async () => {
    nowSeconds = start
    const { access_token } = await tokens.issue(key)
    const signedByJose = await new SignJWT({ workspace_id: "ws_1", scope: "write" })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(tokenIssuer)
      .setAudience(tokenAudience)
      .setSubject("key_1")
      .setIssuedAt(start)
      .setExpirationTime(start + 3600)
      .sign(bytes(secret))
    expect(access_token).toBe(signedByJose)
    expect(await joseAccepts(access_token)).toBe(true)
    expect(await tokens.verify(access_token)).toEqual(actor)
  })

  it("accepts tokens jose signed, with or without typ, and an audience among several", async () => {
    nowSeconds = start + 10
    await acceptedByBoth(await joseToken())
    await acceptedByBoth(await joseToken({ header: { typ: "JWT" } }))
    await acceptedByBoth(await joseToken({ extra: { aud: ["elsewhere", tokenAudience] } }))
    await acceptedByBoth(await joseToken({ header: { crit: ["b64"], b64: true } }))
  })

  it("refuses every algorithm but HS256, even signed with the secret", async () => {
    nowSeconds = start + 10
    const [, payload] = (await joseToken()).split(".")
    await refusedByBoth(`${part({ alg: "none" })}.${payload}.`)
    await refusedByBoth(await joseToken({ header: { alg: "HS512" } }))
    // An RS256 header over an HMAC of the secret: the key confusion a verifier must not fall for.
    await refusedByBoth(handSigned({ alg: "RS256", typ: "JWT" }))
    await refusedByBoth(handSigned({ typ: "JWT" }))
    await refusedByBoth(handSigned({ alg: ["HS256"] }))
    await acceptedByBoth(handSigned({ alg: "HS256" }))
  })

  it("refuses a bad signature, another secret's, and tokens cut short or with parts added", async () => {
    nowSeconds = start + 10
    const token = await joseToken()
    const [header, payload, signature = ""] = token.split(".")
    const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`
    await refusedByBoth(`${header}.${payload}.${flipped}`)
    await refusedByBoth(`${header}.${payload}.${signature.slice(0, -1)}`)
    await refusedByBoth(`${header}.${payload}.`)
    await refusedByBoth(await joseToken({ key: otherSecret }))
    await refusedByBoth(`${header}.${payload}`)
    await refusedByBoth(`${header}.${payload}.${signature}.${signature}`)
    await refusedByBoth(`${token}.`)
    await refusedByBoth(`${payload}.${signature}`)
    await refusedByBoth("")
    await refusedByBoth("..")
    // A claim changed under the same signature.
    await refusedByBoth(`${header}.${part({ ...claims, scope: "read" })}.${signature}`)
  })

  it("refuses the wrong issuer or audience, missing claims, and an unknown critical header", async () => {
    nowSeconds = start + 10
    await refusedByBoth(await joseToken({ extra: { iss: "someone-else" } }))
    await refusedByBoth(await joseToken({ extra: { aud: "hosted-pages" } }))
    await refusedByBoth(handSigned({ alg: "HS256", crit: ["exp"] }))
    await refusedByBoth(handSigned({ alg: "HS256", crit: ["b64"], b64: false }))
    await refusedByBoth(handSigned({ alg: "HS256", crit: [] }))
    await refusedByBoth(handSigned({ alg: "HS256" }, part([claims])))
    await refusedByBoth(handSigned({ alg: "HS256" }, Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString("base64url")))
    await refusedByBoth(await joseToken({ extra: { sub: undefined } }))
    await refusedByBoth(await joseToken({ extra: { iss: undefined } }))
    await refusedByBoth(await joseToken({ extra: { aud: undefined } }))
    await refusedByBoth(await joseToken({ extra: { exp: undefined } }))
    await refusedByBoth(await joseToken({ extra: { iat: "yesterday" } }))
  })

  it("refuses an expired token from its exp on, and a token before its nbf", async () => {
    const token = await joseToken({ exp: start + 60 })
    nowSeconds = start + 59
    await acceptedByBoth(token)
    nowSeconds = start + 60
    await refusedByBoth(token)
    const later = await joseToken({ extra: { nbf: start + 30 } })
    nowSeconds = start + 29
    await refusedByBoth(later)
    nowSeconds = start + 30
    await acceptedByBoth(later)
    await refusedByBoth(await joseToken({ extra: { nbf: "soon" } }))
  })
})
