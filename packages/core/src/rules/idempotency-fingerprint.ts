// jose's CryptoKey is the host's Web Crypto key type without naming the DOM library's global, which
// a consumer type-checking for Node (no "dom" lib) does not have.
import type { CryptoKey } from "jose"

/** The parts of a request that must match for a replay. */
export interface FingerprintedRequest {
  readonly method: string
  readonly path: string
  /** The parsed JSON body, or undefined for none. */
  readonly body: unknown
}

/**
 * JSON with object keys sorted at every depth (callers bound the depth: request bodies are
 * refused beyond 64 levels before they get here), so two bodies that differ only in key order or
 * white space are the same request.
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

/** Shortest server secret the engine derives a fingerprint key from. */
export const minimumServerSecretLength = 32

/** The scheme every fingerprint written now starts with. */
export const fingerprintScheme = "hmac-sha256"

/**
 * What a fingerprint stored before fingerprints were keyed became (storage migration
 * `0006_keyed_fingerprints`): an unkeyed SHA-256 of a body let a full account number be guessed
 * from its mask, so it was erased, and its record kept so the key still replays.
 */
export const erasedFingerprint = "erased:unkeyed-sha256"

/**
 * The HMAC key of fingerprints and its public id, both derived from the server secret by
 * HKDF-SHA-256 under labels of their own, so the fingerprint key is used for nothing else and the
 * id (which says which secret made a fingerprint) tells nothing about the key.
 */
export interface FingerprintKey {
  readonly hmac: CryptoKey
  /** 8 hex digits. */
  readonly id: string
}

const hkdfLabels = {
  hmac: "payments-engine/idempotency-fingerprint/hmac-sha256/v1",
  id: "payments-engine/idempotency-fingerprint/key-id/v1",
} as const

const utf8 = (text: string) => new TextEncoder().encode(text)
const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("")

/**
 * Derives the {@link FingerprintKey} of a server secret (at least
 * {@link minimumServerSecretLength} characters; a shorter one throws a RangeError).
 *
 * @example
 * const key = await deriveFingerprintKey(process.env.PAYMENTS_JWT_SECRET!)
 */
export const deriveFingerprintKey = async (serverSecret: string): Promise<FingerprintKey> => {
  if (serverSecret.length < minimumServerSecretLength) {
    throw new RangeError(`the server secret must be at least ${minimumServerSecretLength} characters`)
  }
  const material = await crypto.subtle.importKey("raw", utf8(serverSecret), "HKDF", false, ["deriveKey", "deriveBits"])
  const hkdf = (label: string) => ({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8(label) })
  const hmac = await crypto.subtle.deriveKey(
    hkdf(hkdfLabels.hmac),
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  )
  const id = hex(await crypto.subtle.deriveBits(hkdf(hkdfLabels.id), material, 32))
  return { hmac, id }
}

/**
 * `hmac-sha256:<key id>:<HMAC-SHA-256 hex>` of method, path and canonical body. Keyed, so a
 * stored fingerprint cannot be matched by hashing guessed bodies (a full account number beside
 * its stored mask) without the server secret.
 *
 * @example
 * declare const key: FingerprintKey, body: unknown
 * await requestFingerprint(key, { method: "POST", path: "/api/v1/companies", body }) // "hmac-sha256:1f2e3d4c:9a..."
 */
export const requestFingerprint = async (key: FingerprintKey, request: FingerprintedRequest): Promise<string> => {
  const text = `${request.method.toUpperCase()}\n${request.path}\n${request.body === undefined ? "" : canonicalJson(request.body)}`
  const mac = await crypto.subtle.sign("HMAC", key.hmac, utf8(text))
  return `${fingerprintScheme}:${key.id}:${hex(mac)}`
}

/**
 * Whether a stored fingerprint can be compared with one made now: made by this scheme under the
 * same key. One erased by the migration, or made under another server secret (it was rotated
 * within the 24 h a record is kept), cannot: the caller replays rather than refuse a retry it
 * cannot tell from another request.
 */
export const comparableFingerprints = (stored: string, current: string): boolean => {
  const prefixOf = (fingerprint: string) => fingerprint.slice(0, fingerprint.lastIndexOf(":") + 1)
  return prefixOf(stored) === prefixOf(current)
}
