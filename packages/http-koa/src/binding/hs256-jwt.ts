import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto"

/**
 * JWTs in the JWS compact form signed with HS256, on `node:crypto`. jose 6 verifies HMAC through
 * Web Crypto only, whose every call goes through the thread pool: about 110 µs a token against
 * about 12 µs here, a fifth of the server's CPU for a GET. The checks are jose's `jwtVerify` with
 * `algorithms: ["HS256"]`, `issuer`, `audience`, `requiredClaims` and `currentDate` and no clock
 * tolerance, so tokens either signs verify with the other (tests hold both to it). Stricter than
 * jose in one way only: each part must be unpadded base64url and the signature the canonical
 * encoding of its 32 bytes, as every HS256 signer writes them. A token whose signature held is
 * remembered (the last {@link rememberedTokens}), so a client's next requests skip the HMAC.
 */

/** The checks of {@link Hs256Jwt.verify}. */
export interface Hs256Checks {
  /** The `iss` the token must carry. */
  readonly issuer: string
  /** An `aud` the token must carry (as a string or one entry of an array). */
  readonly audience: string
  /** Claims that must be present besides `iss` and `aud`. */
  readonly requiredClaims: ReadonlyArray<string>
  /** Now, in Unix seconds: `exp` must be after it, `nbf` (if any) not after it. */
  readonly nowSeconds: number
}

/** Signs and verifies HS256 JWTs with one secret. */
export interface Hs256Jwt {
  /** The compact token of `claims`, under the header `{"alg":"HS256","typ":"JWT"}`, as jose writes it. */
  sign(claims: Readonly<Record<string, unknown>>): string
  /** The claims of a token that passes every check; undefined for any other. */
  verify(token: string, checks: Hs256Checks): Readonly<Record<string, unknown>> | undefined
}

const base64url = /^[A-Za-z0-9_-]*$/
/** Tokens whose signature is remembered, the oldest forgotten first: about one per client in use. */
const rememberedTokens = 10_000
const strictUtf8 = new TextDecoder("utf-8", { fatal: true })
const signedHeader = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")

/** A JSON object (not an array, not null) from one part of the token; undefined for anything else. */
const jsonObjectOf = (part: string): Record<string, unknown> | undefined => {
  // Base64 of any length but 4n+1 decodes; Buffer would drop the odd character where atob refuses it.
  if (part.length % 4 === 1 || !base64url.test(part)) return undefined
  try {
    const value: unknown = JSON.parse(strictUtf8.decode(Buffer.from(part, "base64url")))
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * jose accepts a `crit` header only when it lists nothing but `b64`, and then refuses a JWT
 * whose `b64` is not `true` (an unencoded payload); without `crit`, `b64` means nothing.
 */
const critAccepted = (header: Record<string, unknown>): boolean => {
  const { crit } = header
  if (crit === undefined) return true
  return Array.isArray(crit) && crit.length > 0 && crit.every((name) => name === "b64") && header.b64 === true
}

const hasAudience = (aud: unknown, audience: string): boolean =>
  aud === audience || (Array.isArray(aud) && aud.includes(audience))

/** A numeric-date claim: absent, or a number. */
const isDateOrAbsent = (value: unknown): value is number | undefined => value === undefined || typeof value === "number"

/**
 * HS256 JWTs of one secret (its UTF-8 bytes are the HMAC key, as jose takes a
 * `TextEncoder().encode(secret)` key).
 *
 * @example
 * const jwt = hs256Jwt(secret)
 * const token = jwt.sign({ sub: "key_1", iss: "me", aud: "api", iat: 1767225600, exp: 1767229200 })
 * jwt.verify(token, { issuer: "me", audience: "api", requiredClaims: ["sub"], nowSeconds: 1767225601 }) // the claims
 */
export const hs256Jwt = (secret: string): Hs256Jwt => {
  const key: KeyObject = createSecretKey(Buffer.from(secret, "utf8"))
  const signatureOf = (signingInput: string) => createHmac("sha256", key).update(signingInput).digest("base64url")
  // The claims of tokens whose signature held, by the whole token: a client sends one token for up
  // to an hour, and the HMAC and the decoding are two thirds of a verification. Only the signature
  // and the form are remembered; every claim is checked again on every call.
  const signed = new Map<string, Readonly<Record<string, unknown>>>()
  const signedClaimsOf = (token: string): Readonly<Record<string, unknown>> | undefined => {
    const parts = token.split(".")
    if (parts.length !== 3) return undefined
    const [encodedHeader = "", encodedPayload = "", signature = ""] = parts
    const header = jsonObjectOf(encodedHeader)
    if (header === undefined || header.alg !== "HS256" || !critAccepted(header)) return undefined
    if (!base64url.test(encodedPayload) || !base64url.test(signature)) return undefined
    const expected = signatureOf(`${encodedHeader}.${encodedPayload}`)
    // Lengths are no secret; the bytes are compared in constant time.
    if (signature.length !== expected.length) return undefined
    if (!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) return undefined
    const claims = jsonObjectOf(encodedPayload)
    if (claims === undefined) return undefined
    if (signed.size >= rememberedTokens) signed.delete(signed.keys().next().value ?? "")
    signed.set(token, Object.freeze(claims))
    return claims
  }
  return {
    sign(claims) {
      const signingInput = `${signedHeader}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`
      return `${signingInput}.${signatureOf(signingInput)}`
    },
    verify(token, checks) {
      const claims = signed.get(token) ?? signedClaimsOf(token)
      if (claims === undefined) return undefined
      for (const name of [...checks.requiredClaims, "aud", "iss"]) if (!Object.hasOwn(claims, name)) return undefined
      if (claims.iss !== checks.issuer || !hasAudience(claims.aud, checks.audience)) return undefined
      const { iat, nbf, exp } = claims
      if (!isDateOrAbsent(iat) || !isDateOrAbsent(nbf) || !isDateOrAbsent(exp)) return undefined
      if (nbf !== undefined && nbf > checks.nowSeconds) return undefined
      if (exp !== undefined && exp <= checks.nowSeconds) return undefined
      return claims
    },
  }
}
