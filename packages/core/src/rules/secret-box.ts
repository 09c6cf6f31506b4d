/**
 * Secrets the engine must use again later but must not keep readable (a webhook endpoint's
 * signing secret): sealed with AES-256-GCM under a key derived from the server secret by
 * HKDF-SHA-256, with a label of its own, so the idempotency fingerprint key and this one never
 * meet. The stored text names the scheme and the key's public id; the row's id is bound in as
 * additional data, so a sealed secret copied onto another row does not open. Web Crypto only
 * (`crypto.subtle`), no `node:` module.
 */

// jose's CryptoKey is the host's Web Crypto key type without naming the DOM library's global, which
// a consumer type-checking for Node (no "dom" lib) does not have.
import type { CryptoKey } from "jose"
import { minimumServerSecretLength } from "./idempotency-fingerprint.ts"

/** The AES-GCM key of sealed secrets and its public id (8 hex digits, derived apart from the key). */
export interface SecretBoxKey {
  readonly aes: CryptoKey
  readonly id: string
}

/** The scheme every sealed secret starts with. */
export const secretBoxScheme = "aes-256-gcm"

/**
 * What a sealing key is for; each purpose has HKDF labels of its own, so a text sealed for one
 * never opens under another's key. `webhook-endpoint-secret` (endpoint secrets and the secrets
 * of remembered answers) is the default, as before purposes existed.
 */
export type SecretBoxPurpose = "webhook-endpoint-secret" | "person-tax-id" | "idempotency-journal"

const hkdfLabels = (purpose: SecretBoxPurpose) =>
  ({
    aes: `payments-engine/${purpose}/aes-256-gcm/v1`,
    id: `payments-engine/${purpose}/key-id/v1`,
  }) as const

const utf8 = (text: string) => new TextEncoder().encode(text)
const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("")

const toBase64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> => {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

/**
 * Derives the {@link SecretBoxKey} of a server secret for `purpose` (at least 32 characters; a
 * shorter one throws a RangeError).
 *
 * @example
 * const key = await deriveSecretBoxKey(process.env.PAYMENTS_JWT_SECRET!)
 */
export const deriveSecretBoxKey = async (
  serverSecret: string,
  purpose: SecretBoxPurpose = "webhook-endpoint-secret",
): Promise<SecretBoxKey> => {
  if (serverSecret.length < minimumServerSecretLength) {
    throw new RangeError(`the server secret must be at least ${minimumServerSecretLength} characters`)
  }
  const material = await crypto.subtle.importKey("raw", utf8(serverSecret), "HKDF", false, ["deriveKey", "deriveBits"])
  const hkdf = (label: string) => ({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8(label) })
  const labels = hkdfLabels(purpose)
  const aes = await crypto.subtle.deriveKey(hkdf(labels.aes), material, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ])
  const id = hex(await crypto.subtle.deriveBits(hkdf(labels.id), material, 32))
  return { aes, id }
}

/**
 * `aes-256-gcm:<key id>:<iv>:<ciphertext and tag>` (base64url) of `secret`, bound to `boundTo`
 * (the row's id). A fresh random 96-bit IV each time, so sealing one secret twice gives two texts.
 *
 * @example
 * declare const key: SecretBoxKey, endpoint: WebhookEndpointRecord
 * const stored = await sealSecret(key, endpoint.id, "whsec_...")
 */
export const sealSecret = async (key: SecretBoxKey, boundTo: string, secret: string): Promise<string> => {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: utf8(boundTo) },
    key.aes,
    utf8(secret),
  )
  return `${secretBoxScheme}:${key.id}:${toBase64Url(iv)}:${toBase64Url(new Uint8Array(sealed))}`
}

/**
 * The secret of a text {@link sealSecret} made for `boundTo` under this key; undefined when it was
 * sealed under another key (the server secret changed), for another row, or was altered.
 *
 * @example
 * declare const key: SecretBoxKey, endpoint: WebhookEndpointRecord
 * const secret = await openSecret(key, endpoint.id, endpoint.secret) // "whsec_..." or undefined
 */
export const openSecret = async (key: SecretBoxKey, boundTo: string, stored: string): Promise<string | undefined> => {
  const [scheme, keyId, iv, sealed, ...rest] = stored.split(":")
  if (scheme !== secretBoxScheme || keyId !== key.id || iv === undefined || sealed === undefined || rest.length > 0) {
    return undefined
  }
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: utf8(boundTo) },
      key.aes,
      fromBase64Url(sealed),
    )
    return new TextDecoder().decode(plain)
  } catch {
    return undefined
  }
}
