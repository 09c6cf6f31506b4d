const encoder = new TextEncoder()

/** Headers as Fetch, Node's `IncomingHttpHeaders` or a plain object carry them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds; 300 (five minutes) by default. */
  readonly toleranceSeconds?: number
  /** Milliseconds since the epoch, to judge the timestamp by; `Date.now` by default. */
  readonly now?: () => number
  /**
   * Accepts a delivery signed by `Service-Signature` alone. That header has no timestamp, so a
   * captured delivery verifies forever: whoever replays one only has to strip the `webhook-*`
   * headers. Off by default; turn it on only for a sender that cannot send the timestamped headers.
   */
  readonly allowLegacySignature?: boolean
}

/** How far a delivery's `webhook-timestamp` may be from the receiver's clock, by default: five minutes. */
const defaultToleranceSeconds = 5 * 60

type Bytes = Uint8Array<ArrayBuffer>

const headerOf = (headers: WebhookHeaders, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return typeof value === "string" ? value : value?.[0]
  }
  return undefined
}

const fromBase64 = (text: string): Bytes | undefined => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
}

const fromHex = (text: string): Bytes | undefined => {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(text)) return undefined
  return Uint8Array.from({ length: text.length / 2 }, (_, i) => Number.parseInt(text.slice(i * 2, i * 2 + 2), 16))
}

/** Standard Webhooks reads a `whsec_` secret as the base64 after the prefix; any other as its UTF-8 bytes. */
const standardKey = (secret: string): Bytes => {
  const decoded = secret.startsWith("whsec_") ? fromBase64(secret.slice("whsec_".length)) : undefined
  return decoded !== undefined && decoded.length > 0 ? decoded : encoder.encode(secret)
}

const hmacKey = (secret: Bytes) =>
  crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["verify"])

const bytesOf = (payload: string | Uint8Array): Bytes =>
  typeof payload === "string" ? encoder.encode(payload) : new Uint8Array(payload)

/** One `v1,<base64>` entry of `webhook-signature` matches `<id>.<timestamp>.<body>` (constant time, by `verify`). */
const standardSignatureMatches = async (signatures: string, signed: Bytes, secret: string): Promise<boolean> => {
  const key = await hmacKey(standardKey(secret))
  for (const entry of signatures.split(" ")) {
    const [version, signature] = entry.split(",", 2)
    const bytes = version === "v1" && signature !== undefined ? fromBase64(signature) : undefined
    if (bytes !== undefined && (await crypto.subtle.verify("HMAC", key, bytes, signed))) return true
  }
  return false
}

/**
 * Whether a webhook delivery was signed with the endpoint's secret, and recently. The service
 * signs every delivery the Standard Webhooks way: `webhook-id`, `webhook-timestamp` (Unix
 * seconds) and `webhook-signature: v1,<base64>`, the HMAC-SHA256 of `<id>.<timestamp>.<body>`.
 * A delivery is accepted when one `v1` signature matches and its timestamp is within
 * `toleranceSeconds` of now, so a captured delivery replayed later is refused. A delivery
 * carrying only the older `Service-Signature` (no timestamp, no replay window) is refused unless
 * `allowLegacySignature` is set. Pass the body exactly as received, before any JSON parsing.
 * Web Crypto only, so it runs in Node, Deno, browsers and edge runtimes.
 *
 * @example
 * declare const rawBody: string, request: { headers: WebhookHeaders }, endpoint: { webhook_secret: string }
 * if (!(await verifyWebhook(rawBody, request.headers, endpoint.webhook_secret))) return 401
 */
export const verifyWebhook = async (
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<boolean> => {
  const body = bytesOf(payload)
  const signatures = headerOf(headers, "webhook-signature")
  if (signatures !== undefined) {
    // Present, it decides: falling back to Service-Signature would let a forger strip it.
    const id = headerOf(headers, "webhook-id")
    const timestamp = headerOf(headers, "webhook-timestamp")
    if (id === undefined || timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return false
    const now = Math.floor((options.now ?? Date.now)() / 1000)
    if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? defaultToleranceSeconds)) return false
    const prefix = encoder.encode(`${id}.${timestamp}.`)
    const signed = new Uint8Array(prefix.length + body.length)
    signed.set(prefix)
    signed.set(body, prefix.length)
    return standardSignatureMatches(signatures, signed, secret)
  }
  if (options.allowLegacySignature !== true) return false
  const legacy = headerOf(headers, "Service-Signature")
  const digest = legacy?.startsWith("sha256=") ? fromHex(legacy.slice("sha256=".length)) : undefined
  if (digest === undefined) return false
  return crypto.subtle.verify("HMAC", await hmacKey(encoder.encode(secret)), digest, body)
}
