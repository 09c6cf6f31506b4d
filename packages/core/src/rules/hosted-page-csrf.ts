/**
 * CSRF tokens of the hosted pages' forms, bound to one hosted-page token: the HMAC-SHA-256 of the
 * token's `jti` under a key derived from the server secret by HKDF with a label of its own (so
 * neither the bearer tokens' key nor the hosted-page tokens' can produce one), base64url. Checked
 * with `crypto.subtle.verify`, which compares in constant time. No `node:` module.
 */

// jose's CryptoKey is the host's Web Crypto key type without naming the DOM library's global, which
// a consumer type-checking for Node (no "dom" lib) does not have.
import type { CryptoKey } from "jose"
import { minimumServerSecretLength } from "./idempotency-fingerprint.ts"

/** The HKDF label of the CSRF key; a new version makes every form rendered before refuse. */
export const hostedPageCsrfKeyLabel = "payments-engine/hosted-page-csrf/hmac-sha256/v1"

/** The longest text read as a CSRF token (a 32-byte MAC is 43 base64url characters). */
const longestCsrfToken = 64

const utf8 = (text: string) => new TextEncoder().encode(text)

/**
 * The HMAC-SHA-256 key of the hosted pages' CSRF tokens for a server secret.
 *
 * @example
 * const key = await deriveHostedPageCsrfKey(secret)
 */
export const deriveHostedPageCsrfKey = async (serverSecret: string): Promise<CryptoKey> => {
  if (serverSecret.length < minimumServerSecretLength) {
    throw new RangeError(`the server secret must be at least ${minimumServerSecretLength} characters`)
  }
  const material = await crypto.subtle.importKey("raw", utf8(serverSecret), "HKDF", false, ["deriveKey"])
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8(hostedPageCsrfKeyLabel) },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign", "verify"],
  )
}

const toBase64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"))
    return Uint8Array.from(binary, (char) => char.charCodeAt(0))
  } catch {
    return undefined
  }
}

/**
 * The CSRF token of the forms shown to the holder of the hosted-page token `tokenId` (its `jti`).
 *
 * @example
 * declare const key: CryptoKey
 * const csrf = await hostedPageCsrfToken(key, claims.tokenId)
 */
export const hostedPageCsrfToken = async (key: CryptoKey, tokenId: string): Promise<string> =>
  toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8(tokenId))))

/**
 * True when `csrf` is the CSRF token of `tokenId`; compared in constant time by Web Crypto.
 *
 * @example
 * declare const key: CryptoKey, form: URLSearchParams, refuse: () => never
 * if (!(await checkHostedPageCsrfToken(key, claims.tokenId, form.get("csrf") ?? ""))) refuse()
 */
export const checkHostedPageCsrfToken = async (key: CryptoKey, tokenId: string, csrf: string): Promise<boolean> => {
  if (csrf.length === 0 || csrf.length > longestCsrfToken) return false
  const mac = fromBase64Url(csrf)
  // Only the canonical spelling: base64url's last character has spare bits a lenient decoder ignores.
  if (mac === undefined || toBase64Url(mac) !== csrf) return false
  return crypto.subtle.verify("HMAC", key, mac, utf8(tokenId))
}
